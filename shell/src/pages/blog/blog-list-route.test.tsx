import { render, screen } from '@testing-library/react';
import type { ComponentType } from 'react';
import { MemoryRouter } from '@agency/shared/router';
import type { BlogListPageProps } from '@agency/shared';
import { loadRemoteModule } from '../../frame/federation/load-remote-module';
import { PageRenderContext, type PageRenderCollector } from '../../frame/page/page-render-context';
import { BlogListRoute } from './BlogListRoute';

jest.mock('../../frame/federation/load-remote-module', () => ({ loadRemoteModule: jest.fn() }));
const mockedLoad = jest.mocked(loadRemoteModule);

function FakeListPage({ category, page }: BlogListPageProps) {
  return <p>{`рубрика: ${category ?? 'усі'}, сторінка ${page}`}</p>;
}

function renderAt(url: string, collector: PageRenderCollector | null = null) {
  return render(
    <PageRenderContext.Provider value={collector}>
      <MemoryRouter initialEntries={[url]}>
        <BlogListRoute />
      </MemoryRouter>
    </PageRenderContext.Provider>,
  );
}

beforeEach(() => {
  mockedLoad.mockResolvedValue({ component: FakeListPage as ComponentType<object>, release: 'r1' });
});

describe('BlogListRoute', () => {
  it("gives the blog's listing the category and page of the address", async () => {
    renderAt('/blog?category=%D0%9A%D0%B5%D0%B9%D1%81%D0%B8&page=2');
    expect(await screen.findByText('рубрика: Кейси, сторінка 2')).toBeInTheDocument();
    expect(mockedLoad).toHaveBeenCalledWith('blog/BlogListPage');
    expect(document.title).toBe('Кейси — блог, сторінка 2 — Хвиля');
  });

  it('shows the first page of every post for a plain or malformed address', async () => {
    renderAt('/blog?page=abc');
    expect(await screen.findByText('рубрика: усі, сторінка 1')).toBeInTheDocument();
    expect(document.title).toBe('Блог — Хвиля');
  });

  it('tells a server render its slot and the canonical meta of the page', () => {
    const collector: PageRenderCollector = { serverSlots: {}, slots: [], status: 200 };
    renderAt('/blog?page=03&category=SMM', collector);
    expect(collector.slots).toEqual([{ id: 'blog/BlogListPage', props: { category: 'SMM', page: 1 } }]);
    expect(collector.meta).toMatchObject({ path: '/blog?category=SMM', type: 'website' });
    expect(collector.status).toBe(200);
  });
});
