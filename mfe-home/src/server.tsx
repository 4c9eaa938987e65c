// The home remote's server bundle (see shared/src/page/server-rendering.ts): the first screen's
// pieces, which need no data, as static markup.
import type { ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import type { RemoteServerBundle } from '@agency/shared';
import Hero from './features/hero/Hero';
import About from './features/about/About';

const SERVER_RENDERED: Record<string, ComponentType> = { Hero, About };

export const dataFor: RemoteServerBundle['dataFor'] = (module) => (module in SERVER_RENDERED ? [] : undefined);

export const renderSlot: RemoteServerBundle['renderSlot'] = (module) => {
  const Component = SERVER_RENDERED[module];
  if (!Component) throw new Error(`The home remote does not render ${module} on the server`);
  return { html: renderToString(<Component />) };
};
