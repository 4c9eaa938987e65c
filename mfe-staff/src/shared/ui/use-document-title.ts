import { useEffect } from 'react';
import { BRAND } from '@agency/shared';

/** The tab's title while a page of the console is shown. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Консоль «${BRAND.name}»`;
  }, [title]);
}
