import { render } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import { useDocumentMeta } from './use-document-meta';

/** A shell route that sets its title in a layout effect, with a page inside that refines it. */
function Route({ routeTitle, pageTitle }: { routeTitle: string; pageTitle: string | null }) {
  useLayoutEffect(() => {
    document.title = routeTitle;
  }, [routeTitle]);
  return <Page title={pageTitle} />;
}

function Page({ title }: { title: string | null }) {
  useDocumentMeta(title, null);
  return null;
}

describe('useDocumentMeta', () => {
  it('puts the previous title back when it stops refining it', () => {
    const { rerender } = render(<Route routeTitle="Блог — Хвиля" pageTitle="Сторінку не знайдено — Хвиля" />);
    expect(document.title).toBe('Сторінку не знайдено — Хвиля');
    rerender(<Route routeTitle="Блог — Хвиля" pageTitle={null} />);
    expect(document.title).toBe('Блог — Хвиля');
  });

  it('keeps the title the next route set in the same commit', () => {
    const { rerender } = render(<Route routeTitle="Fake — блог — Хвиля" pageTitle="Сторінку не знайдено — Хвиля" />);
    rerender(<Route routeTitle="Блог — Хвиля" pageTitle={null} />);
    expect(document.title).toBe('Блог — Хвиля');
  });

  it('sets and restores the meta description', () => {
    document.head.innerHTML = '<meta name="description" content="Сайт">';
    function Described({ description }: { description: string | null }) {
      useDocumentMeta(null, description);
      return null;
    }
    const { rerender, unmount } = render(<Described description="Стаття" />);
    expect(document.head.querySelector('meta[name="description"]')?.getAttribute('content')).toBe('Стаття');
    rerender(<Described description={null} />);
    expect(document.head.querySelector('meta[name="description"]')?.getAttribute('content')).toBe('Сайт');
    unmount();
  });
});
