// The forms remote's server bundle (see shared/src/page/server-rendering.ts): both forms as the
// markup the browser's remote then hydrates. Their fields, labels and the submit button are in the
// page before any script, and the form posts to the API by itself when scripts are off.
import type { ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from '@agency/shared/router';
import { PAGE_ROUTES, type RemoteServerBundle } from '@agency/shared';
import ContactForm from './features/contact/ContactForm';
import JobApplicationForm from './features/job-application/JobApplicationForm';

const SERVER_RENDERED: Record<string, ComponentType> = { ContactForm, JobApplicationForm };

export const dataFor: RemoteServerBundle['dataFor'] = (module) => (module in SERVER_RENDERED ? [] : undefined);

export const renderSlot: RemoteServerBundle['renderSlot'] = (module) => {
  const Form = SERVER_RENDERED[module];
  if (!Form) throw new Error(`The forms remote does not render ${module} on the server`);
  // Both forms are on the home page: their links are resolved from there.
  return {
    html: renderToString(
      <StaticRouter location={PAGE_ROUTES.home}>
        <Form />
      </StaticRouter>,
    ),
  };
};
