import { loadRemote } from '@module-federation/enhanced/runtime';
import { loadRemoteModule, RETRY_DELAYS_MS } from './load-remote-module';
import { refreshRemote, registeredRemote } from './remotes-config';
import { REMOTE_UNAVAILABLE } from './remote-fallback-plugin';

jest.mock('@module-federation/enhanced/runtime', () => ({ loadRemote: jest.fn(), registerRemotes: jest.fn() }));
jest.mock('./remotes-config', () => ({
  registerRuntimeRemotes: () => Promise.resolve(),
  registeredRemote: jest.fn(),
  refreshRemote: jest.fn(),
}));

const mockedLoadRemote = loadRemote as jest.MockedFunction<typeof loadRemote>;
const mockedRefresh = refreshRemote as jest.MockedFunction<typeof refreshRemote>;
const mockedRegistered = registeredRemote as jest.MockedFunction<typeof registeredRemote>;

const Post = () => null;

describe('loadRemoteModule', () => {
  beforeEach(() => {
    jest.resetAllMocks();
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    mockedRegistered.mockReturnValue({ entry: '/remotes/blog/b1/mf-manifest.json', release: 'b1' });
    mockedRefresh.mockResolvedValue(false);
  });

  it('returns the component and the release it came from', async () => {
    mockedLoadRemote.mockResolvedValueOnce({ default: Post });
    await expect(loadRemoteModule('blog/BlogPostPage')).resolves.toEqual({ component: Post, release: 'b1' });
    expect(mockedLoadRemote).toHaveBeenCalledWith('blog/BlogPostPage');
    expect(mockedRefresh).not.toHaveBeenCalled();
  });

  it('retries a failed chunk or manifest load after asking the server again', async () => {
    mockedLoadRemote.mockRejectedValueOnce(new Error('ChunkLoadError')).mockResolvedValueOnce({ default: Post });
    await expect(loadRemoteModule('blog/BlogPostPage')).resolves.toEqual({ component: Post, release: 'b1' });
    expect(mockedRefresh).toHaveBeenCalledWith('blog');
    expect(mockedLoadRemote).toHaveBeenCalledTimes(2);
  });

  it('loads from the release a deploy made current when the page’s own release fails', async () => {
    mockedLoadRemote.mockResolvedValueOnce({ [REMOTE_UNAVAILABLE]: true }).mockResolvedValueOnce({ default: Post });
    mockedRefresh.mockImplementationOnce(async () => {
      mockedRegistered.mockReturnValue({ entry: '/remotes/blog/b2/mf-manifest.json', release: 'b2' });
      return true;
    });
    await expect(loadRemoteModule('blog/BlogPostPage')).resolves.toEqual({ component: Post, release: 'b2' });
  });

  it('gives up after the last retry', async () => {
    mockedLoadRemote.mockRejectedValue(new Error('offline'));
    await expect(loadRemoteModule('home/Hero')).rejects.toThrow('home/Hero is unavailable');
    expect(mockedLoadRemote).toHaveBeenCalledTimes(RETRY_DELAYS_MS.length + 1);
  });
});
