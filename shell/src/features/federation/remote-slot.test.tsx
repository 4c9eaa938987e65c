import { render, screen } from '@testing-library/react';
import { loadRemote } from '@module-federation/enhanced/runtime';
import { RemoteSlot, REMOTE_UNAVAILABLE_MESSAGE } from './remote-slot';
import { REMOTE_UNAVAILABLE } from './remote-fallback-plugin';

jest.mock('@module-federation/enhanced/runtime', () => ({ loadRemote: jest.fn(), registerRemotes: jest.fn() }));
jest.mock('./remotes-config', () => ({ registerRuntimeRemotes: () => Promise.resolve() }));

const mockedLoadRemote = loadRemote as jest.MockedFunction<typeof loadRemote>;

describe('RemoteSlot', () => {
  beforeEach(() => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('renders the remote component with the props the shell passes', async () => {
    mockedLoadRemote.mockResolvedValueOnce({ default: ({ postId }: { postId: string }) => <p>Стаття {postId}</p> });
    render(<RemoteSlot id="blog/BlogPostPage-ok" props={{ postId: '7' }} />);
    expect(await screen.findByText('Стаття 7')).toBeInTheDocument();
    expect(mockedLoadRemote).toHaveBeenCalledWith('blog/BlogPostPage-ok');
  });

  it('shows the message in its own slot when the runtime reports the remote unavailable', async () => {
    mockedLoadRemote.mockResolvedValueOnce({ [REMOTE_UNAVAILABLE]: true });
    render(
      <>
        <RemoteSlot id="home/Hero-down" />
        <p>Решта сторінки</p>
      </>,
    );
    expect(await screen.findByText(REMOTE_UNAVAILABLE_MESSAGE)).toBeInTheDocument();
    expect(screen.getByText('Решта сторінки')).toBeInTheDocument();
  });

  it('shows a custom message when the remote throws while rendering', async () => {
    mockedLoadRemote.mockResolvedValueOnce({
      default: () => {
        throw new Error('boom');
      },
    });
    render(<RemoteSlot id="blog/BlogPostPage-throws" message="Не вдалося завантажити статтю." />);
    expect(await screen.findByRole('status')).toHaveTextContent('Не вдалося завантажити статтю.');
  });

  it('shows the loading placeholder until the remote arrives', async () => {
    let resolve!: (value: unknown) => void;
    mockedLoadRemote.mockReturnValueOnce(new Promise((r) => (resolve = r)) as never);
    render(<RemoteSlot id="home/Team-slow" loading={<p>Завантаження…</p>} />);
    expect(screen.getByText('Завантаження…')).toBeInTheDocument();
    resolve({ default: () => <p>Команда</p> });
    expect(await screen.findByText('Команда')).toBeInTheDocument();
  });
});
