// The shell's server bundle (see shared/src/page/server-rendering.ts): the page frame for a URL,
// rendered from the same components as in the browser.
import { renderToString } from 'react-dom/server';
import { StaticRouter } from '@agency/shared/router';
import type { ShellServerBundle } from '@agency/shared';
import { App } from './app/App';
import { SiteToastContainer } from './frame/toasts/SiteToastContainer';
import { ToastHost } from './frame/toasts/ToastHost';
import { PageRenderContext, type PageRenderCollector } from './frame/page/page-render-context';

export const renderPage: ShellServerBundle['renderPage'] = (url, serverSlots) => {
  const collector: PageRenderCollector = { serverSlots, slots: [], status: 200 };
  const html = renderToString(
    <PageRenderContext.Provider value={collector}>
      <StaticRouter location={url}>
        <App />
      </StaticRouter>
      <ToastHost container={SiteToastContainer} />
    </PageRenderContext.Provider>,
  );
  return { html, meta: collector.meta, status: collector.status, slots: collector.slots };
};
