/** @jest-environment jsdom */
import { act, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { PAGE_DATA_IDS } from '../page/server-rendering';
import { isString, readListOf, readWhole } from '../api/response-guards';
import type { ApiResource } from './api-resource';
import { useApiResource, type ApiData } from './use-api-resource';

function textResource(path: string, load: () => Promise<unknown>): ApiResource<string> {
  return { path, load, read: readWhole(isString) };
}

function describeState(state: ApiData<string>): string {
  if (state.status === 'loaded') return `loaded: ${state.data}`;
  if (state.status === 'failed') return `failed${state.notFound ? ' (not found)' : ''}`;
  return 'loading';
}

function Probe({ resource }: { resource: ApiResource<string> }) {
  return <p data-testid="state">{describeState(useApiResource(resource, 'probe'))}</p>;
}

// The page's server data is read once, as a page load would: it is in place before any test renders.
const script = document.createElement('script');
script.type = 'application/json';
script.id = PAGE_DATA_IDS.serverData;
script.textContent = JSON.stringify({ '/rendered': { status: 200, body: 'з сервера' } });
document.body.append(script);

const state = () => screen.getByTestId('state').textContent;
let consoleError: jest.SpyInstance;

beforeEach(() => {
  consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => consoleError.mockRestore());

describe('useApiResource', () => {
  it('is loading, then loaded with the answer', async () => {
    let resolve!: (value: unknown) => void;
    render(<Probe resource={textResource('/a', () => new Promise((r) => (resolve = r)))} />);
    expect(state()).toBe('loading');
    await act(async () => resolve('привіт'));
    expect(state()).toBe('loaded: привіт');
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('logs an answer of the wrong shape and fails', async () => {
    render(<Probe resource={textResource('/services', async () => ({ html: '<h1>proxy error</h1>' }))} />);
    await waitFor(() => expect(state()).toBe('failed'));
    expect(consoleError).toHaveBeenCalledWith(expect.stringContaining('[probe] GET /api/services'), { html: '<h1>proxy error</h1>' });
  });

  it('shows the well-formed items of a list and logs the ones it leaves out', async () => {
    const words: ApiResource<string[]> = { path: '/words', load: async () => ['один', 7, 'три', null], read: readListOf(isString) };
    function ListProbe() {
      const loaded = useApiResource(words, 'probe');
      return <p data-testid="state">{loaded.status === 'loaded' ? loaded.data.join(', ') : loaded.status}</p>;
    }
    render(<ListProbe />);
    await waitFor(() => expect(state()).toBe('один, три'));
    expect(consoleError).toHaveBeenCalledWith(expect.stringContaining('[probe] GET /api/words: left out 2 malformed item(s)'), [7, null]);
  });

  it('logs a failed request and tells a 404 apart', async () => {
    const notFound = Object.assign(new Error('Request failed with status code 404'), { response: { status: 404 } });
    const { unmount } = render(<Probe resource={textResource('/blog/9', () => Promise.reject(notFound))} />);
    await waitFor(() => expect(state()).toBe('failed (not found)'));
    expect(consoleError).toHaveBeenCalledWith(expect.stringContaining('GET /api/blog/9 failed'), notFound);
    unmount();

    const network = new Error('Network Error');
    render(<Probe resource={textResource('/blog/10', () => Promise.reject(network))} />);
    await waitFor(() => expect(state()).toBe('failed'));
  });

  it('loads again when the path changes, and never shows the old answer for the new path', async () => {
    const answers: Record<string, (value: unknown) => void> = {};
    const resourceFor = (path: string) => textResource(path, () => new Promise((r) => (answers[path] = r)));
    let show!: (path: string) => void;
    function Switcher() {
      const [path, setPath] = useState('/one');
      show = setPath;
      return <Probe resource={resourceFor(path)} />;
    }
    render(<Switcher />);
    await act(async () => answers['/one']!('перша'));
    expect(state()).toBe('loaded: перша');

    act(() => show('/two'));
    expect(state()).toBe('loading');
    await act(async () => answers['/two']!('друга'));
    expect(state()).toBe('loaded: друга');
  });

  it('starts from the data the server rendered the page with, without asking again', () => {
    const load = jest.fn(() => new Promise<unknown>(() => {}));
    render(<Probe resource={textResource('/rendered', load)} />);
    expect(state()).toBe('loaded: з сервера');
    expect(load).not.toHaveBeenCalled();
  });
});
