import { loadRemote } from '@module-federation/enhanced/runtime';
import { loadRemoteModule, RETRY_DELAYS_MS } from './load-remote-module';
import { refreshRemote, registeredRemote } from './remotes-config';
import { REMOTE_UNAVAILABLE } from './remote-fallback-plugin';
import { reportRemoteErrorsTo, type ReportRemoteError } from './remote-error-reporting';

jest.mock('@module-federation/enhanced/runtime', () => ({ loadRemote: jest.fn(), registerRemotes: jest.fn() }));
jest.mock('./remotes-config', () => ({
  registerRuntimeRemotes: () => Promise.resolve(),
  registeredRemote: jest.fn(),
  refreshRemote: jest.fn(),
}));

const mockedLoadRemote = loadRemote as jest.MockedFunction<typeof loadRemote>;
const mockedRefresh = refreshRemote as jest.MockedFunction<typeof refreshRemote>;
const mockedRegistered = registeredRemote as jest.MockedFunction<typeof registeredRemote>;
// The reporter the page passes in (telemetry's reportError).
const mockedReportError: jest.MockedFunction<ReportRemoteError> = jest.fn();
reportRemoteErrorsTo(mockedReportError);

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
    expect(mockedReportError).not.toHaveBeenCalled();
  });

  it('retries a failed chunk or manifest load after asking the server again', async () => {
    const failure = new Error('ChunkLoadError');
    mockedLoadRemote.mockRejectedValueOnce(failure).mockResolvedValueOnce({ default: Post });
    await expect(loadRemoteModule('blog/BlogPostPage')).resolves.toEqual({ component: Post, release: 'b1' });
    expect(mockedRefresh).toHaveBeenCalledWith('blog');
    expect(mockedLoadRemote).toHaveBeenCalledTimes(2);
    expect(mockedReportError.mock.calls).toEqual([['load_retry', failure, 'blog']]);
  });

  it('reports what the fallback plugin caught, or why the module is of no use', async () => {
    const manifestError = new Error('[ Federation Runtime ]: Failed to get manifest');
    mockedLoadRemote
      .mockResolvedValueOnce({ [REMOTE_UNAVAILABLE]: manifestError })
      .mockResolvedValueOnce({ [REMOTE_UNAVAILABLE]: true })
      .mockResolvedValueOnce({ default: 'not a component' });
    await expect(loadRemoteModule('home/Hero')).rejects.toThrow('home/Hero is unavailable');
    expect(mockedReportError.mock.calls).toEqual([
      ['load_retry', manifestError, 'home'],
      ['load_retry', new Error('Remote module home/Hero did not load'), 'home'],
      ['load_failure', new Error('Remote module home/Hero has no component'), 'home'],
    ]);
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
    // Each retried failure, then the last one, against the remote.
    expect(mockedReportError.mock.calls).toEqual([
      ...RETRY_DELAYS_MS.map(() => ['load_retry', new Error('offline'), 'home']),
      ['load_failure', new Error('offline'), 'home'],
    ]);
  });
});
