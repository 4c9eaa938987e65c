import { act, render, screen } from '@testing-library/react';
import type { ComponentType, ReactElement } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { PageRenderContext, type PageRenderCollector } from '../page/page-render-context';
import { loadRemoteModule, type LoadedRemoteModule } from './load-remote-module';
import { RemoteSlot, REMOTE_UNAVAILABLE_MESSAGE } from './remote-slot';
import { SHOWN_IF_REMOTE_FAILS_ATTRIBUTE, type RemoteModuleId } from '@agency/shared';
import { reportRemoteErrorsTo, type ReportRemoteError } from './remote-error-reporting';

jest.mock('./load-remote-module', () => ({ loadRemoteModule: jest.fn() }));

const mockedLoad = loadRemoteModule as jest.MockedFunction<typeof loadRemoteModule>;
// The reporter the page passes in (telemetry's reportError).
const mockedReportError: jest.MockedFunction<ReportRemoteError> = jest.fn();
reportRemoteErrorsTo(mockedReportError);

function loaded(component: ComponentType<never>, release = 'r1'): Promise<LoadedRemoteModule> {
  return Promise.resolve({ component: component as ComponentType<object>, release });
}

// Loaded modules are kept for the page's lifetime, so each test uses another module id.
describe('RemoteSlot', () => {
  beforeEach(() => {
    mockedLoad.mockReset();
    mockedReportError.mockReset();
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('renders the remote component with the props the shell passes, marked with its release', async () => {
    mockedLoad.mockReturnValueOnce(loaded(({ postId }: { postId: string }) => <p>Стаття {postId}</p>, '1.0.0-abc'));
    render(<RemoteSlot id="blog/BlogPostPage" props={{ postId: '7' }} />);
    const text = await screen.findByText('Стаття 7');
    expect(mockedLoad).toHaveBeenCalledWith('blog/BlogPostPage');
    const slot = text.closest('[data-remote-module]');
    expect(slot).toHaveAttribute('data-remote-module', 'blog/BlogPostPage');
    expect(slot).toHaveAttribute('data-remote-release', '1.0.0-abc');
  });

  it('shows the message in its own slot when the remote cannot be loaded', async () => {
    mockedLoad.mockRejectedValueOnce(new Error('Remote module home/Hero is unavailable'));
    render(
      <>
        <RemoteSlot id="home/Hero" />
        <p>Решта сторінки</p>
      </>,
    );
    expect(await screen.findByText(REMOTE_UNAVAILABLE_MESSAGE)).toBeInTheDocument();
    expect(screen.getByText('Решта сторінки')).toBeInTheDocument();
  });

  it('tries a failed remote again the next time its slot appears', async () => {
    mockedLoad.mockRejectedValueOnce(new Error('offline')).mockReturnValueOnce(loaded(() => <p>Про нас</p>));
    const first = render(<RemoteSlot id="home/About" />);
    expect(await screen.findByText(REMOTE_UNAVAILABLE_MESSAGE)).toBeInTheDocument();
    first.unmount();
    render(<RemoteSlot id="home/About" />);
    expect(await screen.findByText('Про нас')).toBeInTheDocument();
    expect(mockedLoad).toHaveBeenCalledTimes(2);
  });

  it('shows a custom message when the remote throws while rendering', async () => {
    mockedLoad.mockReturnValueOnce(
      loaded(() => {
        throw new Error('boom');
      }),
    );
    render(<RemoteSlot id="blog/BlogTeaser" message="Не вдалося завантажити статтю." />);
    expect(await screen.findByRole('status')).toHaveTextContent('Не вдалося завантажити статтю.');
  });

  it('reports an error the remote throws while rendering against that remote, as caught by its boundary', async () => {
    const thrown = new Error('Cannot read properties of undefined');
    mockedLoad.mockReturnValueOnce(
      loaded(() => {
        throw thrown;
      }),
    );
    render(<RemoteSlot id="home/Services" />);
    await screen.findByText(REMOTE_UNAVAILABLE_MESSAGE);
    expect(mockedReportError).toHaveBeenCalledWith('boundary', thrown, 'home');
    expect(mockedReportError.mock.calls.every(([kind]) => kind === 'boundary')).toBe(true);
  });

  it('leaves a failed load to the loader’s own reports (no boundary report)', async () => {
    mockedLoad.mockRejectedValueOnce(new Error('Remote module forms/ContactForm is unavailable'));
    render(<RemoteSlot id="forms/ContactForm" />);
    expect(await screen.findByText(REMOTE_UNAVAILABLE_MESSAGE)).toBeInTheDocument();
    expect(mockedReportError).not.toHaveBeenCalledWith('boundary', expect.anything(), expect.anything());
  });

  it('shows the loading placeholder until the remote arrives', async () => {
    let resolve!: (value: LoadedRemoteModule) => void;
    mockedLoad.mockReturnValueOnce(new Promise((r) => (resolve = r)));
    render(<RemoteSlot id="home/Team" loading={<p>Завантаження…</p>} />);
    expect(screen.getByText('Завантаження…')).toBeInTheDocument();
    resolve({ component: () => <p>Команда</p>, release: 'r1' });
    expect(await screen.findByText('Команда')).toBeInTheDocument();
  });

  it('adopts the placeholder the server sent for a slot it had no markup for, with no error, then shows the remote', async () => {
    const slot = <RemoteSlot id="staff/StaffConsole" minHeight="60vh" />;
    const collector: PageRenderCollector = { serverSlots: {}, slots: [], status: 200 };
    const container = document.createElement('div');
    container.innerHTML = renderToString(<PageRenderContext.Provider value={collector}>{slot}</PageRenderContext.Provider>);
    document.body.append(container);
    expect(container.innerHTML).not.toContain('<!--$!');
    mockedLoad.mockReturnValueOnce(loaded(() => <p>Усі статті</p>));
    const recoverable: unknown[] = [];
    const root = await act(async () => hydrateRoot(container, slot, { onRecoverableError: (error) => recoverable.push(error) }));
    expect(await screen.findByText('Усі статті')).toBeInTheDocument();
    expect(recoverable).toEqual([]);
    act(() => root.unmount());
    container.remove();
  });

  describe('a lower section the server sent', () => {
    /** IntersectionObserver as jsdom lacks it: the test says when the visitor nears what is observed. */
    let observed: { element: Element; callback: IntersectionObserverCallback }[];
    const nearAll = () => {
      for (const { element, callback } of observed.splice(0)) {
        callback([{ isIntersecting: true, target: element } as IntersectionObserverEntry], {} as IntersectionObserver);
      }
    };

    beforeEach(() => {
      observed = [];
      (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver = class {
        constructor(private readonly callback: IntersectionObserverCallback) {}
        observe(element: Element) {
          observed.push({ element, callback: this.callback });
        }
        disconnect() {}
      };
    });
    afterEach(() => {
      delete (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver;
    });

    /** The page as the server sent it: the slot's section with the remote's markup, in a document. */
    function serverPage(id: RemoteModuleId, slot: ReactElement, html: string) {
      const collector: PageRenderCollector = { serverSlots: { [id]: { html, release: 'r7' } }, slots: [], status: 200 };
      const container = document.createElement('div');
      container.innerHTML = renderToString(
        <PageRenderContext.Provider value={collector}>
          <section>{slot}</section>
        </PageRenderContext.Provider>,
      );
      document.body.append(container);
      return { container, collector };
    }

    it('is in the server’s markup, recorded as a lower section, and stays as sent, unloaded, until the visitor nears it; then React hydrates it in place', async () => {
      const slot = <RemoteSlot id="home/Reasons" whenVisible minHeight="480px" />;
      const { container, collector } = serverPage('home/Reasons', slot, '<h2>Чому ми</h2>');
      expect(collector.slots).toEqual([{ id: 'home/Reasons', props: {}, whenVisible: true }]);
      const sent = container.querySelector('[data-remote-module="home/Reasons"]')!;
      expect(sent.innerHTML).toBe('<h2>Чому ми</h2>');

      mockedLoad.mockReturnValueOnce(loaded(() => <h2>Чому ми</h2>, 'r7'));
      const recoverable: unknown[] = [];
      const root = await act(async () => hydrateRoot(container, <section>{slot}</section>, { onRecoverableError: (error) => recoverable.push(error) }));
      expect(mockedLoad).not.toHaveBeenCalled();
      expect(container.querySelector('[data-remote-module="home/Reasons"]')).toBe(sent);
      expect(container.querySelector('[data-remote-pending]')).toBeNull();

      await act(async () => nearAll());
      await screen.findByText('Чому ми');
      expect(mockedLoad).toHaveBeenCalledWith('home/Reasons');
      // The very element the server sent, now React's: hydrated, not drawn again.
      expect(container.querySelector('[data-remote-module="home/Reasons"]')).toBe(sent);
      expect(Object.keys(sent).some((key) => key.startsWith('__reactFiber'))).toBe(true);
      expect(recoverable).toEqual([]);
      act(() => root.unmount());
      container.remove();
    });

    it('keeps the server’s markup readable when its remote cannot load, and shows what it holds for that case', async () => {
      const slot = <RemoteSlot id="home/ContactDetails" whenVisible minHeight="400px" />;
      const { container } = serverPage(
        'home/ContactDetails',
        slot,
        `<h2>Контакти</h2><p>вул. Городоцька, 36</p><p hidden="" ${SHOWN_IF_REMOTE_FAILS_ATTRIBUTE}="">Працює й так</p>`,
      );
      expect(screen.getByText('Працює й так')).not.toBeVisible();
      mockedLoad.mockRejectedValueOnce(new Error('Remote module home/ContactDetails is unavailable'));
      const recoverable: unknown[] = [];
      const root = await act(async () => hydrateRoot(container, <section>{slot}</section>, { onRecoverableError: (error) => recoverable.push(error) }));
      await act(async () => nearAll());
      await act(async () => new Promise((resolve) => setTimeout(resolve, 0)));
      expect(mockedLoad).toHaveBeenCalledWith('home/ContactDetails');
      expect(screen.getByText('вул. Городоцька, 36')).toBeInTheDocument();
      expect(screen.getByText('Працює й так')).toBeVisible();
      expect(screen.queryByText(REMOTE_UNAVAILABLE_MESSAGE)).toBeNull();
      expect(recoverable).toEqual([]);
      act(() => root.unmount());
      container.remove();
    });
  });
});
