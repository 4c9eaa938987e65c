import { useState } from 'react';
import { useLocation } from '@agency/shared/router';
import { stopWaitingForViewport } from './near-viewport';

/**
 * For a page whose sections the server sent and the browser hydrates as the visitor nears them:
 * once a navigation keeps the page (another query or section of the same address), every section
 * still waiting is loaded and hydrated at once (see stopWaitingForViewport). Called as the
 * navigation renders, which cannot be shown before that.
 */
export function useHydrateOnNavigation(): void {
  const location = useLocation();
  const [rendered] = useState(location);
  // Ending the waits is idempotent, so a render React repeats or drops does no harm.
  if (location !== rendered) stopWaitingForViewport();
}
