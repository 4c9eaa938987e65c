import { render } from '@testing-library/react';
import { useEffect } from 'react';
import type { PageMeta } from '@agency/shared';
import { keepServerRenderedTitle, usePageMeta } from './page-render-context';

const ROUTE_META: PageMeta = { title: 'Fake — блог — Хвиля', description: 'Опис', path: '/blog?category=Fake', type: 'website' };

/** A remote's page that refines the title in its own effect, as the blog's listing does for a category that does not exist. */
function RemotePage({ title }: { title: string }) {
  useEffect(() => {
    document.title = title;
  }, [title]);
  return <p>{title}</p>;
}

function Route({ remoteTitle }: { remoteTitle: string }) {
  usePageMeta(ROUTE_META);
  return <RemotePage title={remoteTitle} />;
}

describe('usePageMeta', () => {
  it('sets the route’s title before a remote inside it refines the title in the same render', () => {
    render(<Route remoteTitle="Сторінку не знайдено — Хвиля" />);
    expect(document.title).toBe('Сторінку не знайдено — Хвиля');
  });

  it('sets the route’s title when nothing inside refines it', () => {
    function Plain() {
      usePageMeta(ROUTE_META);
      return null;
    }
    render(<Plain />);
    expect(document.title).toBe(ROUTE_META.title);
  });
});

describe('keepServerRenderedTitle', () => {
  it('leaves the title the server sent on the first commit, then follows the route again', () => {
    document.title = 'Сторінку не знайдено — Хвиля';
    keepServerRenderedTitle();
    function Plain({ meta }: { meta: PageMeta }) {
      usePageMeta(meta);
      return null;
    }
    const { rerender } = render(<Plain meta={ROUTE_META} />);
    expect(document.title).toBe('Сторінку не знайдено — Хвиля');

    rerender(<Plain meta={{ ...ROUTE_META, title: 'Блог — Хвиля' }} />);
    expect(document.title).toBe('Блог — Хвиля');
  });
});
