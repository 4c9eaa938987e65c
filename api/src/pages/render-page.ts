import {
  EXTERNAL_RELEASE,
  HOME_PAGE_META,
  PAGE_DATA_IDS,
  UNRELEASED,
  type PageMeta,
  type RemoteModuleId,
  type RemoteLocation,
  type RemoteName,
  type RemoteServerBundle,
  type RemotesDocument,
  type ServerData,
  type ServerSlot,
  type ShellServerBundle,
} from '@agency/shared';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { distDir, SHELL } from '../releases/apps';
import type { ReleaseReader } from '../releases/reader';
import { BUILD_FILES, loadServerBundle, readBuildJson, readBuildText } from './build-files';
import { escapeHtml, headTags, scriptJson } from './head-tags';
import { selfRequestHeaders } from '../server-lifecycle';

export interface PageRendererOptions {
  /** The app itself: the data a render needs comes from its own API routes. */
  app: FastifyInstance;
  releases: ReleaseReader;
  staticRoot: string;
  /** Builds of remotes hosted elsewhere (REMOTE_BUILDS_DIR), to render their slots here too. */
  remoteBuildsDir?: string;
  remotesDocument: () => Promise<RemotesDocument>;
}

export interface RenderedPage {
  status: number;
  html: string;
}

/** The first-render files the shell's build lists (shared/webpack/page-assets-plugin.js). */
interface PageAssets {
  scripts: string[];
  styles: string[];
  fonts: string[];
}

/** The part of Module Federation's manifest a page needs: the entry and each exposed module's files. */
interface RemoteManifest {
  metaData: { remoteEntry: { name: string; path: string } };
  exposes: { name: string; assets: { js: { sync: string[] }; css: { sync: string[] } } }[];
}


/**
 * React puts resource hints a render discovered (a priority image's preload) before the markup;
 * they belong in the head, and the browser's hydration expects the markup alone.
 */
export function splitResourceHints(html: string): { hints: string[]; markup: string } {
  const leading = /^(?:<link [^>]*>)+/.exec(html)?.[0] ?? '';
  return { hints: leading.match(/<link [^>]*>/g) ?? [], markup: html.slice(leading.length) };
}

/** Where this server can reach itself: the address it listens on (a wildcard means loopback). */
function ownOrigin(app: FastifyInstance): string {
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('The server is not listening on a TCP port');
  if (address.family === 'IPv6') return `http://[${address.address === '::' ? '::1' : address.address}]:${address.port}`;
  return `http://${address.address === '0.0.0.0' ? '127.0.0.1' : address.address}:${address.port}`;
}

/**
 * How long a page's render waits for all its API data: a slot whose data is not there by then
 * (the database unreachable, say) is left to the browser. It bounds a page render to about this,
 * which the shell's nginx read timeout is fitted to (shell/deploy/nginx-site.conf.template).
 */
export const PAGE_DATA_TIMEOUT_MS = 1000;

const NOT_RENDERED: SlotResult = { data: {}, hints: [], links: [] };

/** The page's server-rendered part: the frame's markup, its meta and status, and what the slots need. */
interface Frame {
  body: string;
  meta?: PageMeta;
  status: number;
  data: ServerData;
  hints: string[];
  links: string[];
}

/** A page the browser renders alone: the shell's empty template. */
const BROWSER_ONLY: Frame = { body: '', status: 200, data: {}, hints: [], links: [] };

function joinUrl(base: string, file: string): string {
  return `${base}${file.replace(/^\/+/, '')}`;
}

/** A remote slot's server render, its data and what the browser should fetch early for it. */
interface SlotResult {
  slot?: ServerSlot;
  meta?: PageMeta;
  status?: number;
  data: ServerData;
  /** React's resource hints from the render (a priority image's preload). */
  hints: string[];
  links: string[];
}

/**
 * Renders pages on the server: the shell's server bundle gives the frame for the URL and names its
 * slots; each slot's remote renders its own markup (with the API data it asks for) from its
 * current release; the result goes into the shell's index.html with the head, the links the first
 * screen needs, the remotes map and the data, so the page shows with no script and the remotes
 * take over where it stands.
 */
export function createPageRenderer({ app, releases, staticRoot, remoteBuildsDir, remotesDocument }: PageRendererOptions) {
  /**
   * An API answer as the browser would get it: a request to this server's own socket, through
   * the real routes, schemas and serializers. (Fastify's inject would skip the socket, but its
   * light-my-request needs cookie 2, which supports only Node 22 and later.)
   */
  async function apiAnswer(apiPath: string, signal: AbortSignal) {
    try {
      const response = await fetch(`${ownOrigin(app)}/api${apiPath}`, {
        headers: { accept: 'application/json', ...selfRequestHeaders(app) },
        signal,
      });
      return { status: response.status, body: (await response.json()) as unknown };
    } catch (error) {
      // Past the page's data deadline: as a gateway would say, no answer in time.
      if (signal.aborted) return { status: 504, body: null };
      throw error;
    }
  }

  /**
   * The folder and URL base of the build the page's remotes map points the browser at, so the
   * server renders from the very release the browser will hydrate with. A remote hosted elsewhere
   * renders from the copy of its build its own server left in REMOTE_BUILDS_DIR; undefined without
   * one, or for a release pruned since the map was read.
   */
  async function servedRemote(remote: RemoteName, location: RemoteLocation) {
    const baseUrl = location.entry.slice(0, location.entry.lastIndexOf('/') + 1);
    if (location.release === EXTERNAL_RELEASE) return remoteBuildsDir ? { dir: distDir(remoteBuildsDir, remote), baseUrl } : undefined;
    if (location.release === UNRELEASED) return { dir: distDir(staticRoot, remote), baseUrl };
    const kept = (await releases.get(remote)).releases.find((release) => release.id === location.release);
    return kept && { dir: kept.dir, baseUrl };
  }

  async function renderSlot(
    log: FastifyBaseLogger,
    id: RemoteModuleId,
    props: object,
    remotes: RemotesDocument,
    signal: AbortSignal,
  ): Promise<SlotResult> {
    const remote = id.slice(0, id.indexOf('/')) as RemoteName;
    const module = id.slice(remote.length + 1);
    const location = remotes.remotes[remote];
    const served = await servedRemote(remote, location);
    if (!served) return NOT_RENDERED;
    try {
      const bundle = await loadServerBundle<RemoteServerBundle>(served.dir);
      const paths = bundle?.dataFor(module, props);
      if (!bundle || !paths) return NOT_RENDERED;
      const data: ServerData = {};
      for (const apiPath of paths) data[apiPath] = await apiAnswer(apiPath, signal);
      // An answer the API failed to give (5xx: a database error, say) says nothing about the page:
      // rendered with it, a post that exists would be a 404 «not found». The browser renders such
      // a slot instead, asking the API again.
      const failed = Object.entries(data).filter(([, answer]) => answer.status >= 500);
      if (failed.length > 0) {
        log.warn({ slot: id, failed: failed.map(([apiPath, answer]) => `${apiPath}: ${answer.status}`) }, 'slot left to the browser: the API failed to answer');
        return NOT_RENDERED;
      }
      const rendered = bundle.renderSlot(module, props, data);
      const manifest = await readBuildJson<RemoteManifest>(served.dir, BUILD_FILES.MANIFEST_FILE);
      const expose = manifest?.exposes.find((candidate) => candidate.name === module);
      // The server markup needs its styles before the first paint; the scripts only make it
      // interactive, so they are fetched early but below the styles and fonts in priority.
      // `data-href` is the file's name as the remote's CSS loader knows it: when the module's
      // code arrives, the loader adopts this stylesheet instead of adding the same one again
      // (which would restyle and lay out the whole page once more).
      const links = manifest
        ? [
            ...(expose?.assets.css.sync ?? []).map(
              (file) => `<link rel="stylesheet" href="${escapeHtml(joinUrl(served.baseUrl, file))}" data-href="${escapeHtml(file)}">`,
            ),
            `<link rel="preload" as="fetch" crossorigin fetchpriority="low" href="${escapeHtml(location.entry)}">`,
            `<link rel="preload" as="script" fetchpriority="low" href="${escapeHtml(joinUrl(served.baseUrl, manifest.metaData.remoteEntry.name))}">`,
            ...(expose?.assets.js.sync ?? []).map(
              (file) => `<link rel="preload" as="script" fetchpriority="low" href="${escapeHtml(joinUrl(served.baseUrl, file))}">`,
            ),
          ]
        : [];
      const { hints, markup } = splitResourceHints(rendered.html);
      return {
        slot: { html: markup, release: location.release },
        meta: rendered.meta,
        status: rendered.status,
        data,
        hints,
        links,
      };
    } catch (error) {
      // The slot then renders in the browser, as it did before server rendering.
      log.error({ err: error, slot: id }, 'server render of a slot failed');
      return NOT_RENDERED;
    }
  }

  function shellLinks(assets: PageAssets | undefined): string[] {
    if (!assets) return [];
    return [
      ...assets.styles.map((file) => `<link rel="stylesheet" href="/${escapeHtml(file)}">`),
      ...assets.fonts.map((file) => `<link rel="preload" as="font" type="font/woff2" crossorigin href="/${escapeHtml(file)}">`),
      ...assets.scripts.map((file) => `<link rel="preload" as="script" fetchpriority="low" href="/${escapeHtml(file)}">`),
    ];
  }

  /**
   * The shell's frame for the URL (path and query: `/blog?category=…` picks what the page shows)
   * with every slot its remote renders on the server.
   */
  async function renderFrame(bundle: ShellServerBundle, url: string, remotes: RemotesDocument, log: FastifyBaseLogger): Promise<Frame> {
    const frame = bundle.renderPage(url, {});
    const signal = AbortSignal.timeout(PAGE_DATA_TIMEOUT_MS);
    const serverSlots: Partial<Record<RemoteModuleId, ServerSlot>> = {};
    const result: Frame = { body: '', status: 200, data: {}, hints: [], links: [] };
    for (const slot of frame.slots) {
      const rendered = await renderSlot(log, slot.id, slot.props, remotes, signal);
      if (rendered.slot) serverSlots[slot.id] = rendered.slot;
      result.meta ??= rendered.meta;
      result.status = Math.max(result.status, rendered.status ?? 200);
      Object.assign(result.data, rendered.data);
      result.hints.push(...rendered.hints);
      result.links.push(...rendered.links);
    }
    const page = bundle.renderPage(url, serverSlots);
    result.body = page.html;
    result.meta ??= page.meta;
    result.status = Math.max(result.status, page.status);
    return result;
  }

  /**
   * The page for `url` (path and query), or undefined when the shell is not built or released.
   * `origin` is the site's public origin, for canonical and preview URLs.
   */
  async function render(url: string, origin: string, log: FastifyBaseLogger): Promise<RenderedPage | undefined> {
    // The shell is served from its current release, else its dist folder.
    const shellDir = (await releases.get(SHELL)).current?.dir ?? distDir(staticRoot, SHELL);
    const template = await readBuildText(shellDir, 'index.html');
    if (!template) return undefined;
    const remotes = await remotesDocument();
    const bundle = await loadServerBundle<ShellServerBundle>(shellDir).catch((error: unknown) => {
      log.error({ err: error }, 'the shell server bundle failed to load: pages render in the browser only');
      return undefined;
    });
    const pathname = url.split('?')[0] ?? '/';

    let frame = BROWSER_ONLY;
    if (bundle) {
      try {
        frame = await renderFrame(bundle, url, remotes, log);
      } catch (error) {
        // The page then renders in the browser, as it did before server rendering.
        log.error({ err: error, url: pathname }, 'server render of the page failed');
      }
    }
    const { body, meta, status, data, hints, links } = frame;

    const assets = await readBuildJson<PageAssets>(shellDir, BUILD_FILES.PAGE_ASSETS_FILE);
    // Slots of one remote share its manifest and entry: each link once. What the first paint
    // needs (a slot's priority image, styles, fonts) is asked for before the shell's script.
    const head = [headTags(meta ?? { ...HOME_PAGE_META, path: pathname }, origin), ...new Set([...hints, ...shellLinks(assets), ...links])].join(
      '\n    ',
    );
    const json = [
      `<script type="application/json" id="${PAGE_DATA_IDS.remotes}">${scriptJson(remotes)}</script>`,
      `<script type="application/json" id="${PAGE_DATA_IDS.serverData}">${scriptJson(data)}</script>`,
    ].join('');
    const html = template
      .replace(/<title>[^<]*<\/title>/, '')
      // Before the template's own script tag, so the page's hints are requested first.
      .replace(/<script|<\/head>/, (tag) => `${head}\n    ${tag}`)
      // The shell's build minifies its template (`<div id=root>`).
      .replace(/<div id="?root"?><\/div>/, () => `<div id="root">${body}</div>${json}`);
    return { status, html };
  }

  return { render };
}
