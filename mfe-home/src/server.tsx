// The home remote's server bundle (see shared/src/page/server-rendering.ts): every section, the
// services from the API's answer, as the markup the browser's remote then hydrates.
import type { ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from '@agency/shared/router';
import { PAGE_ROUTES, provideServerData, type RemoteServerBundle } from '@agency/shared';
import { servicesResource } from '@agency/shared/data';
import Hero from './features/hero/Hero';
import About from './features/about/About';
import Services from './features/services/Services';
import Reasons from './features/reasons/Reasons';
import Team from './features/team/Team';
import Vacancies from './features/vacancies/Vacancies';
import ContactDetails from './features/contact-details/ContactDetails';

const SERVER_RENDERED: Record<string, { component: ComponentType; data: string[] }> = {
  Hero: { component: Hero, data: [] },
  About: { component: About, data: [] },
  Services: { component: Services, data: [servicesResource.path] },
  Reasons: { component: Reasons, data: [] },
  Team: { component: Team, data: [] },
  Vacancies: { component: Vacancies, data: [] },
  ContactDetails: { component: ContactDetails, data: [] },
};

export const dataFor: RemoteServerBundle['dataFor'] = (module) => SERVER_RENDERED[module]?.data;

export const renderSlot: RemoteServerBundle['renderSlot'] = (module, _props, data) => {
  const rendered = SERVER_RENDERED[module];
  if (!rendered) throw new Error(`The home remote does not render ${module} on the server`);
  provideServerData(data);
  const { component: Section } = rendered;
  // Links in the sections are resolved as on the home page, where they are.
  return {
    html: renderToString(
      <StaticRouter location={PAGE_ROUTES.home}>
        <Section />
      </StaticRouter>,
    ),
  };
};
