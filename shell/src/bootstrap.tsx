import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from '@agency/shared/router';
import { App } from './app/App';
import { ToastHost } from './frame/toasts/ToastHost';
import { afterFirstVisitorAction } from './frame/toasts/first-visitor-action';
import { keepServerRenderedTitle } from './frame/page/page-render-context';
import { captureLanding } from './frame/attribution/attribution-capture';
import { reportError, startTelemetry } from './frame/telemetry/telemetry-capture';
import { reportRemoteErrorsTo } from './frame/federation/remote-error-reporting';
import './styles/global.css';

// Before the router reads the address: the campaign tags are taken out of it.
captureLanding();

// From here on, errors count against the release they happen in (see frame/telemetry), those of
// remotes' loads and slots too: federation is handed telemetry's reporter rather than importing it,
// since telemetry reads the remotes' releases from federation.
startTelemetry();
reportRemoteErrorsTo(reportError);

// The toast code is fetched at the visitor's first action from now on: React reaches the toast
// host's waiting markup only at a low priority, and an action before that would not count.
void afterFirstVisitorAction();

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

const page = (
  <StrictMode>
    <BrowserRouter>
      <App />
    </BrowserRouter>
    {/* Outside the router, whose context changes with every navigation (see ToastHost). */}
    <ToastHost />
  </StrictMode>
);

// The server sends the page already rendered from the same components: React adopts that markup
// (each remote's part once its code has loaded) instead of drawing the page again. The
// development server's page arrives empty. Hydrating as a transition lets React yield to the
// browser every few milliseconds instead of adopting the whole page in one long task: the page is
// already on screen, and a tap during hydration is replayed once its part is adopted.
if (container.hasChildNodes()) {
  keepServerRenderedTitle();
  startTransition(() => {
    hydrateRoot(container, page, {
      onRecoverableError: (error) => console.error('[shell] the page was redrawn where it differed from the server', error),
    });
  });
} else {
  createRoot(container).render(page);
}
