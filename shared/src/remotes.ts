/**
 * Where the shell finds its remotes at run time. The server that serves the shell answers
 * `/remotes.json` with these manifest URLs, so moving a remote never needs a shell rebuild.
 */
export const REMOTE_NAMES = ['home', 'blog', 'forms'] as const;
export type RemoteName = (typeof REMOTE_NAMES)[number];

export type RemotesConfig = Record<RemoteName, string>;

/** Module Federation `name` of each remote's build. */
export const REMOTE_FEDERATION_NAMES: Record<RemoteName, string> = {
  home: 'agency_home',
  blog: 'agency_blog',
  forms: 'agency_forms',
};

/** Environment variable that overrides each remote's manifest URL. */
export const REMOTE_URL_ENV: Record<RemoteName, string> = {
  home: 'REMOTE_HOME_URL',
  blog: 'REMOTE_BLOG_URL',
  forms: 'REMOTE_FORMS_URL',
};

/** Path under which the all-in-one server serves each remote's build. */
export function remoteBasePath(name: RemoteName): string {
  return `/remotes/${name}/`;
}

export function resolveRemotesConfig(
  env: Record<string, string | undefined>,
  defaults: RemotesConfig,
): RemotesConfig {
  const config = { ...defaults };
  for (const name of REMOTE_NAMES) {
    const value = env[REMOTE_URL_ENV[name]]?.trim();
    if (value) config[name] = value;
  }
  return config;
}

/** Default manifest URLs of the all-in-one server: each remote under its own base path. */
export const SAME_ORIGIN_REMOTES: RemotesConfig = {
  home: `${remoteBasePath('home')}mf-manifest.json`,
  blog: `${remoteBasePath('blog')}mf-manifest.json`,
  forms: `${remoteBasePath('forms')}mf-manifest.json`,
};
