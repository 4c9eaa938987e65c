import { useEffect } from 'react';
import { useLocation } from '@agency/shared/router';
import { reportPageView } from './telemetry-capture';

/** Reports a page view at the first page and at every move to another path, once its slots are in the page. */
export function usePageViews(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    reportPageView();
  }, [pathname]);
}
