import {
  EXTERNAL_RELEASE,
  HOME_PAGE_META,
  isLocalBuildRelease,
  PAGE_DATA_IDS,
  releaseSet,
  REMOTE_NAMES,
  remoteOfModule,
  remotesForPage,
  TELEMETRY_SAMPLE_META,
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
  type SlotRequest,
} from '@agency/shared';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { distDir, SHELL, type Delivery } from '../../delivery';
import { BUILD_FILES, loadServerBundle, readBuildJson, readBuildText } from './build-files';
import { escapeHtml } from '../../platform/lib/escape-html';
import { headTags, scriptJson } from './head-tags';
import type { PageRender } from './page-cache';
import type { SlotMarkupMemo } from './slot-markup-memo';
import { selfRequestHeaders } from '../../platform/plugins/server-lifecycle';

export interface PageRendererOptions {
  /** The app itself: the data a render needs comes from its own API routes. */
  app: FastifyInstance;
  releasesOf: Delivery['releasesOf'];
  staticRoot: string;
  /** Builds of remotes hosted elsewhere (REMOTE_BUILDS_DIR), to render their slots here too. */
  remoteBuildsDir?: string;
  /** The share of page loads whose browsers report telemetry (0: none), told to the shell in the page. */
  telemetrySample: number;
  /** A release's server bundle failed to load or render (the browser renders that part then). */
  onRenderError?(app: string, release: string): void;
  /** Slots' markup kept by what it was rendered from; without it every slot renders each time. */
  slotMarkup?: SlotMarkupMemo;
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

/**
 * How long a page's render waits for all its API data: a slot whose data is not there by then
 * (the database unreachable, say) is left to the browser. It bounds a page render to about this,
 * which the shell's nginx read timeout is fitted to (shell/deploy/nginx-site.conf.template).
 */
export const PAGE_DATA_TIMEOUT_MS = 1000;

/** A slot its remote does not render on the server: the browser renders it, as intended. */
const NOT_RENDERED: SlotResult = { data: {}, hints: [], links: [], complete: true };
/** A slot that should have rendered and did not (its data or its render failed): this page is not kept. */
const FAILED: SlotResult = { ...NOT_RENDERED, complete: false };

/** The page's server-rendered part: the frame's markup, its meta and status, and what the slots need. */
interface Frame {
  body: string;
  meta?: PageMeta;
  status: number;
  data: ServerData;
  hints: string[];
  links: string[];
  complete: boolean;
  /** The remotes the page's slots name; undefined when the frame was not rendered here (any may run). */
  remotes?: RemoteName[];
}

/** A page the browser renders alone (the shell's empty template), as the server could not render it. */
const BROWSER_ONLY: Frame = { body: '', status: 200, data: {}, hints: [], links: [], complete: false };

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
  complete: boolean;
}

/**
 * Renders pages on the server: the shell's server bundle gives the frame for the URL and names its
 * slots; each slot's remote renders its own markup (with the API data it asks for) from its
 * current release; the result goes into the shell's index.html with the head, the links the first
 * screen needs, the remotes map and the data, so the page shows with no script and the remotes
 * take over where it stands.
 */
function styleLink(baseUrl: string, file: string): string {
  return `<link rel="stylesheet" href="${escapeHtml(joinUrl(baseUrl, file))}" data-href="${escapeHtml(file)}">`;
}

export function createPageRenderer({ app, releasesOf, staticRoot, remoteBuildsDir, telemetrySample, onRenderError = () => {}, slotMarkup }: PageRendererOptions) {
  /**
   * An API answer as the browser would get it, through the real routes, schemas and serializers,
   * in-process (Fastify's inject): no socket, connection or HTTP parsing, which a request to this
   * server's own port would cost.
   */
  async function apiAnswer(apiPath: string, deadline: Promise<void>) {
    const answer = app
      .inject({ method: 'GET', url: `/api${apiPath}`, headers: { accept: 'application/json', ...selfRequestHeaders(app) } })
      .then((response) => ({ status: response.statusCode, body: response.json() as unknown }));
    // Past the page's data deadline: as a gateway would say, no answer in time.
    return Promise.race([answer, deadline.then(() => ({ status: 504, body: null }))]);
  }

  /**
   * The folder and URL base of the build the page's remotes map points the browser at, so the
   * server renders from the very release the browser will hydrate with. A remote hosted elsewhere
   * renders from the copy of its build its own server left in REMOTE_BUILDS_DIR; undefined without
   * one, for a build on a release manager's own machine (an override: only their browser reaches
   * it), or for a release pruned since the map was read.
   */
  async function servedRemote(remote: RemoteName, location: RemoteLocation) {
    const baseUrl = location.entry.slice(0, location.entry.lastIndexOf('/') + 1);
    if (isLocalBuildRelease(location.release)) return undefined;
    if (location.release === EXTERNAL_RELEASE) return remoteBuildsDir ? { dir: distDir(remoteBuildsDir, remote), baseUrl } : undefined;
    const dir = await servedBuild(remote, location.release);
    return dir ? { dir, baseUrl } : undefined;
  }

  /** The folder of an app's build that `release` names: a kept release, or its dist folder; undefined once pruned. */
  async function servedBuild(app: string, release: string): Promise<string | undefined> {
    if (release === UNRELEASED) return distDir(staticRoot, app);
    return (await releasesOf(app)).releases.find((kept) => kept.id === release)?.dir;
  }

  /**
   * A stylesheet of a build as a <style> element, or undefined where it must stay a file: one that
   * refers to other files by relative URL, or that holds text closing the element.
   */
  async function inlineStylesheet(dir: string, file: string): Promise<string | undefined> {
    const css = await readBuildText(dir, file).catch(() => undefined);
    if (css === undefined || css.includes('url(') || css.includes('</')) return undefined;
    return `<style data-href="${escapeHtml(file)}">${css}</style>`;
  }

  /**
   * A slot's markup from its remote's current release. A lower section (`whenVisible`) is sent
   * whole too, its styles inlined, but its code is left for the browser to fetch as the visitor
   * nears it: no script preloads, nor the render's own hints (a priority image), which would
   * compete with the first screen.
   */
  async function renderSlot(log: FastifyBaseLogger, { id, props, whenVisible = false }: SlotRequest, remotes: RemotesDocument, deadline: Promise<void>): Promise<SlotResult> {
    const remote = remoteOfModule(id);
    const module = id.slice(remote.length + 1);
    const location = remotes.remotes[remote];
    const served = await servedRemote(remote, location);
    // A remote hosted elsewhere with no copy of its build here, or an override's build on a
    // member's own machine, is rendered in the browser by design; a release pruned since the
    // remotes map was read is a passing failure.
    if (!served) return location.release === EXTERNAL_RELEASE || isLocalBuildRelease(location.release) ? NOT_RENDERED : FAILED;
    try {
      const bundle = await loadServerBundle<RemoteServerBundle>(served.dir);
      const paths = bundle?.dataFor(module, props);
      if (!bundle || !paths) return NOT_RENDERED;
      const data: ServerData = {};
      for (const apiPath of paths) data[apiPath] = await apiAnswer(apiPath, deadline);
      // An answer the API failed to give (5xx: a database error, say) says nothing about the page:
      // rendered with it, a post that exists would be a 404 «not found». The browser renders such
      // a slot instead, asking the API again.
      const failed = Object.entries(data).filter(([, answer]) => answer.status >= 500);
      if (failed.length > 0) {
        log.warn({ slot: id, failed: failed.map(([apiPath, answer]) => `${apiPath}: ${answer.status}`) }, 'slot left to the browser: the API failed to answer');
        return FAILED;
      }
      const renderNow = () => bundle.renderSlot(module, props, data);
      const rendered = slotMarkup ? slotMarkup.render(bundle, served.dir, module, props, data, renderNow) : renderNow();
      const manifest = await readBuildJson<RemoteManifest>(served.dir, BUILD_FILES.MANIFEST_FILE);
      const expose = manifest?.exposes.find((candidate) => candidate.name === module);
      // The server markup needs its styles before the first paint; the scripts only make it
      // interactive, so they are fetched early but below the styles and fonts in priority.
      // `data-href` is the file's name as the remote's CSS loader knows it: when the module's
      // code arrives, the loader adopts this stylesheet instead of adding the same one again
      // (which would restyle and lay out the whole page once more).
      // A lower section's styles come in the page itself: their own requests would hold back the
      // first screen's paint (the CSS loader adopts a <style> with its `data-href` as well).
      const styleLinks = await Promise.all(
        (expose?.assets.css.sync ?? []).map(async (file) => (whenVisible && (await inlineStylesheet(served.dir, file))) || styleLink(served.baseUrl, file)),
      );
      const scriptLinks = [
        `<link rel="preload" as="fetch" crossorigin fetchpriority="low" href="${escapeHtml(location.entry)}">`,
        `<link rel="preload" as="script" fetchpriority="low" href="${escapeHtml(joinUrl(served.baseUrl, manifest?.metaData.remoteEntry.name ?? ''))}">`,
        ...(expose?.assets.js.sync ?? []).map((file) => `<link rel="preload" as="script" fetchpriority="low" href="${escapeHtml(joinUrl(served.baseUrl, file))}">`),
      ];
      const links = !manifest ? [] : whenVisible ? styleLinks : [...styleLinks, ...scriptLinks];
      // The remote's own files (a photo) from the release the markup was rendered from.
      const { hints, markup } = splitResourceHints(rendered.html.replaceAll(BUILD_FILES.SERVER_ASSET_BASE, served.baseUrl));
      return {
        slot: { html: markup, release: location.release },
        meta: rendered.meta,
        status: rendered.status,
        data,
        hints: whenVisible ? [] : hints,
        links,
        complete: true,
      };
    } catch (error) {
      // The slot then renders in the browser; the page is sent but not kept.
      log.error({ err: error, slot: id }, 'server render of a slot failed');
      onRenderError(remote, location.release);
      return FAILED;
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
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, PAGE_DATA_TIMEOUT_MS)));
    const serverSlots: Partial<Record<RemoteModuleId, ServerSlot>> = {};
    const onPage = [...new Set(frame.slots.map((slot) => remoteOfModule(slot.id)))];
    const result: Frame = { body: '', status: 200, data: {}, hints: [], links: [], complete: true, remotes: onPage };
    try {
      // Every slot at once: a page waits for its slowest slot's data, not for their sum.
      const slots = await Promise.all(frame.slots.map(async (slot) => ({ slot, rendered: await renderSlot(log, slot, remotes, deadline) })));
      for (const { slot, rendered } of slots) {
        result.complete &&= rendered.complete;
        if (rendered.slot) serverSlots[slot.id] = rendered.slot;
        result.meta ??= rendered.meta;
        result.status = Math.max(result.status, rendered.status ?? 200);
        Object.assign(result.data, rendered.data);
        result.hints.push(...rendered.hints);
        result.links.push(...rendered.links);
      }
    } finally {
      clearTimeout(timer);
    }
    const page = bundle.renderPage(url, serverSlots);
    result.body = page.html;
    result.meta ??= page.meta;
    result.status = Math.max(result.status, page.status);
    return result;
  }

  /** The shell's frame for the URL, rendered in the browser alone when its bundle is missing or fails. */
  async function renderShell(shellDir: string, url: string, remotes: RemotesDocument, log: FastifyBaseLogger): Promise<Frame> {
    let bundle: ShellServerBundle | undefined;
    try {
      bundle = await loadServerBundle<ShellServerBundle>(shellDir);
    } catch (error) {
      log.error({ err: error }, 'the shell server bundle failed to load: pages render in the browser only');
      onRenderError(SHELL, remotes.shell.release);
      return BROWSER_ONLY;
    }
    // A build without a server bundle: the browser renders every page, by design.
    if (!bundle) return { ...BROWSER_ONLY, complete: true };
    try {
      return await renderFrame(bundle, url, remotes, log);
    } catch (error) {
      // The page then renders in the browser; it is sent but not kept.
      log.error({ err: error, url: url.split('?')[0] }, 'server render of the page failed');
      onRenderError(SHELL, remotes.shell.release);
      return BROWSER_ONLY;
    }
  }

  /**
   * The page for `url` (the address its render reads: pageRenderUrl) from the builds `remotes`
   * names, or undefined when the shell is not built or released. `origin` is the site's public
   * origin, for canonical and preview URLs. `complete` is false when some part of the page could
   * not be rendered (the browser renders it then): such a page is sent but not kept.
   */
  async function render(url: string, remotes: RemotesDocument, origin: string, requestLog: FastifyBaseLogger): Promise<PageRender | undefined> {
    // Every line a render logs says which releases it ran, so a failure is told to the team whose release it is.
    const log = requestLog.child({ releases: releaseSet(remotes) });
    const shellDir = await servedBuild(SHELL, remotes.shell.release);
    const template = shellDir && (await readBuildText(shellDir, 'index.html'));
    if (!shellDir || !template) return undefined;
    const pathname = url.split('?')[0] ?? '/';
    const { body, meta, status, data, hints, links, complete, remotes: onPage = REMOTE_NAMES } = await renderShell(shellDir, url, remotes, log);

    const assets = await readBuildJson<PageAssets>(shellDir, BUILD_FILES.PAGE_ASSETS_FILE);
    // Slots of one remote share its manifest and entry: each link once. What the first paint
    // needs (a slot's priority image, styles, fonts) is asked for before the shell's script.
    const head = [
      headTags(meta ?? { ...HOME_PAGE_META, path: pathname }, origin),
      `<meta name="${TELEMETRY_SAMPLE_META}" content="${telemetrySample}">`,
      ...new Set([...hints, ...shellLinks(assets), ...links]),
    ].join(
      '\n    ',
    );
    const json = [
      `<script type="application/json" id="${PAGE_DATA_IDS.remotes}">${scriptJson(remotesForPage(remotes, pathname))}</script>`,
      `<script type="application/json" id="${PAGE_DATA_IDS.serverData}">${scriptJson(data)}</script>`,
    ].join('');
    const html = template
      .replace(/<title>[^<]*<\/title>/, '')
      // Before the template's own script tag, so the page's hints are requested first.
      .replace(/<script|<\/head>/, (tag) => `${head}\n    ${tag}`)
      // The shell's build minifies its template (`<div id=root>`).
      .replace(/<div id="?root"?><\/div>/, () => `<div id="root">${body}</div>${json}`);
    return { status, html, complete, apps: [SHELL, ...onPage] };
  }

  /**
   * Loads the server bundles of the shell and every remote `remotes` names, as their first render
   * would, so the first visitor after a start or a release does not wait for them: evaluating the
   * four takes about half a CPU-second, which on a busy machine outlasted the shell's proxy
   * timeout (a 504 for the first page). One that fails to load is left for a render to report.
   */
  async function prepare(remotes: RemotesDocument): Promise<void> {
    const dirs = await Promise.all([
      servedBuild(SHELL, remotes.shell.release),
      ...Object.entries(remotes.remotes).map(async ([remote, location]) => (await servedRemote(remote as RemoteName, location))?.dir),
    ]);
    // One at a time: each is a synchronous evaluation, and requests go on between them.
    for (const dir of dirs) if (dir) await loadServerBundle(dir).catch(() => undefined);
  }

  return { render, prepare };
}
