import { lazy, Suspense, type ComponentType } from 'react';
import { afterFirstVisitorAction, nextVisitorAction } from './first-visitor-action';

/**
 * The container's code, fetched at the visitor's first action. A failed fetch is tried again at
 * their next one instead of failing the page (a rejected lazy component would take the whole
 * React root down with it).
 */
async function loadSiteToastContainer(): Promise<typeof import('./SiteToastContainer')> {
  await afterFirstVisitorAction();
  for (;;) {
    try {
      return await import(/* webpackChunkName: "toast-container" */ './SiteToastContainer');
    } catch (error) {
      console.error('[shell] the toasts could not be loaded; trying again at the next action', error);
      await nextVisitorAction();
    }
  }
}

// A toast only ever answers something the visitor did (a form sent), so the browser fetches the
// toast code (react-toastify, about 35 KB) at the visitor's first action instead of evaluating it
// while the page starts. A toast called before the container mounts is held by react-toastify
// and shown once it does.
const SiteToastContainerWhenActed = lazy(async () => {
  const { SiteToastContainer } = await loadSiteToastContainer();
  return { default: SiteToastContainer };
});

interface ToastHostProps {
  /** The container itself, for the server, which renders it at once. */
  container?: ComponentType;
}

/**
 * The one toast host of the site. The server renders the container (its empty live region is in
 * the page from the start); in the browser hydration leaves that markup in place until the
 * container's code has arrived, then adopts it. Render it outside the router (and any context
 * that changes): an update reaching the waiting markup would hold that update until it hydrates.
 */
export function ToastHost({ container: Container = SiteToastContainerWhenActed }: ToastHostProps) {
  return (
    <Suspense fallback={null}>
      <Container />
    </Suspense>
  );
}
