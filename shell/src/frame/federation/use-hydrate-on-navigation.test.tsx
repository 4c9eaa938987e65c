import { act, screen } from '@testing-library/react';
import type { ComponentType } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { Link, MemoryRouter, Route, Routes, useLocation } from '@agency/shared/router';
import { PageRenderContext, type PageRenderCollector } from '../page/page-render-context';
import { loadRemoteModule, type LoadedRemoteModule } from './load-remote-module';
import { RemoteSlot } from './remote-slot';
import { useHydrateOnNavigation } from './use-hydrate-on-navigation';

jest.mock('./load-remote-module', () => ({ loadRemoteModule: jest.fn() }));
const mockedLoad = jest.mocked(loadRemoteModule);

/** A lower section reading the address, as the forms do (`?position=` chooses a vacancy). */
function Vacancy() {
  const { search } = useLocation();
  return <p>{`Вакансія: ${new URLSearchParams(search).get('position') ?? 'жодна'}`}</p>;
}

function Page() {
  useHydrateOnNavigation();
  return (
    <>
      <Link to="/?position=smm#apply">Відгукнутися</Link>
      <section>
        <RemoteSlot id="forms/JobApplicationForm" whenVisible minHeight="560px" />
      </section>
    </>
  );
}

const app = (
  <MemoryRouter>
    <Routes>
      <Route path="/" element={<Page />} />
    </Routes>
  </MemoryRouter>
);

describe('useHydrateOnNavigation', () => {
  beforeEach(() => {
    // Nothing comes near the viewport in this test unless something ends the wait.
    (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver = class {
      observe() {}
      disconnect() {}
    };
  });
  afterEach(() => {
    delete (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver;
  });

  it('hydrates a server-sent section the visitor has not neared once a navigation keeps the page, so the navigation completes', async () => {
    const collector: PageRenderCollector = { serverSlots: { 'forms/JobApplicationForm': { html: '<p>Вакансія: жодна</p>', release: 'r3' } }, slots: [], status: 200 };
    const container = document.createElement('div');
    container.innerHTML = renderToString(<PageRenderContext.Provider value={collector}>{app}</PageRenderContext.Provider>);
    document.body.append(container);
    mockedLoad.mockReturnValue(Promise.resolve({ component: Vacancy as ComponentType<object>, release: 'r3' } satisfies LoadedRemoteModule));

    const root = await act(async () => hydrateRoot(container, app));
    expect(mockedLoad).not.toHaveBeenCalled();

    await act(async () => screen.getByRole('link', { name: 'Відгукнутися' }).click());
    await screen.findByText('Вакансія: smm');
    expect(mockedLoad).toHaveBeenCalledWith('forms/JobApplicationForm');
    act(() => root.unmount());
    container.remove();
  });
});
