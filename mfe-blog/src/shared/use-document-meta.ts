import { useEffect } from 'react';

/**
 * Sets document.title and the meta description while the page shows them, and puts the previous
 * values back on change or unmount, so the home page gets its own title back.
 */
export function useDocumentMeta(title: string | null, description: string | null): void {
  useEffect(() => {
    if (title === null) return;
    const previousTitle = document.title;
    document.title = title;
    return () => {
      // Unless the shell has meanwhile set the next route's title: its layout effect runs before
      // this cleanup in the same commit.
      if (document.title === title) document.title = previousTitle;
    };
  }, [title]);

  useEffect(() => {
    if (description === null) return;
    const existing = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
    const meta = existing ?? document.createElement('meta');
    const created = !existing;
    if (created) {
      meta.name = 'description';
      document.head.append(meta);
    }
    const previousDescription = meta.content;
    meta.content = description;
    return () => {
      if (created) meta.remove();
      else meta.content = previousDescription;
    };
  }, [description]);
}
