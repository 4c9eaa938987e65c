import { randomInt } from 'node:crypto';
import {
  PREVIEW_COOKIE,
  PREVIEW_QUERY_PARAM,
  RELEASE_BUCKET_COOKIE,
  RELEASE_BUCKET_MAX_AGE_DAYS,
  RELEASE_BUCKETS,
  type RemotesDocument,
} from '@agency/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_NAMES } from '../releases/apps';
import type { ReleaseReader } from '../releases/reader';
import { remotesDocument, type ReleaseChoice } from './remotes-document';
import { verifyPreviewToken, type PreviewPin } from './preview-token';
import type { RemoteOverride, RemoteOverrides } from './remote-override';

/** Why a preview link did not pin this browser: the banner says so, the page is the current site. */
export type PreviewNotice = 'invalid' | 'expired' | 'missing';

/** The releases one request is answered from, and why. */
export interface VisitorReleases {
  remotes: RemotesDocument;
  /** A preview link pins this browser: the page is for it alone. */
  preview?: PreviewPin;
  previewNotice?: PreviewNotice;
  /**
   * A release manager's override of one remote, for this browser alone: the page is theirs only,
   * kept nowhere. While it lasts it stands in for a preview (whose cookie stays for later).
   */
  override?: RemoteOverride;
  /**
   * Some app runs a canary: the page depends on the visitor's bucket, so shared caches must not
   * keep it for others.
   */
  canary: boolean;
}

export interface VisitorReleasesOptions {
  releases: ReleaseReader;
  remoteUrls: Parameters<typeof remotesDocument>[1];
  /** The secret preview links are signed with, read (or made) when a request first carries one. */
  previewSecret: () => Promise<string>;
  /** Overrides for one browser; without them, none applies. */
  overrides?: Pick<RemoteOverrides, 'read'>;
  /** https sites send their cookies over https only. */
  secureCookies: boolean;
  now?: () => number;
}

/** The attributes of both delivery cookies (the bucket and the preview): first-party, never read by scripts. */
export function deliveryCookieOptions(secure: boolean) {
  return { path: '/', httpOnly: true, sameSite: 'lax', secure } as const;
}

/** A bucket as the cookie holds it: a whole number below RELEASE_BUCKETS, else none. */
export function parseBucket(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{1,5}$/.test(value)) return undefined;
  const bucket = Number(value);
  return bucket < RELEASE_BUCKETS ? bucket : undefined;
}

/**
 * Chooses each request's releases. Every visitor gets the current releases, except:
 * - a browser that opened a valid preview link gets the staged release it names (kept in a cookie
 *   until the link expires or the visitor leaves through the banner);
 * - while an app runs a canary, a browser whose bucket (the RELEASE_BUCKET_COOKIE) falls in the
 *   candidate's share gets the candidate. A browser's first navigation is given its bucket then and
 *   there, so its first page is already from its release set. A request without the cookie that is
 *   not a browser's navigation (a crawler, a link preview, a monitor) gets the current releases,
 *   and no cookie;
 * - a release manager's browser with an override (remote-override.ts) gets the override's build of
 *   that one remote, before any preview (the override's page shows no preview) or canary.
 */
export function createVisitorReleases({ releases, remoteUrls, previewSecret, overrides, secureCookies, now = Date.now }: VisitorReleasesOptions) {
  const cookieBase = deliveryCookieOptions(secureCookies);

  async function anyCandidate(): Promise<boolean> {
    const states = await Promise.all(APP_NAMES.map((app) => releases.get(app)));
    return states.some((state) => state.candidate !== undefined);
  }

  /** The preview a request asks for (its link's token, else its cookie), checked. */
  async function previewOf(request: FastifyRequest, reply: FastifyReply | undefined) {
    const query = request.query as Record<string, unknown> | undefined;
    const fromLink = typeof query?.[PREVIEW_QUERY_PARAM] === 'string' ? (query[PREVIEW_QUERY_PARAM] as string) : undefined;
    const token = fromLink ?? request.cookies[PREVIEW_COOKIE];
    if (!token) return {};
    const check = verifyPreviewToken(token, await previewSecret(), now());
    if (!check.valid) {
      if (request.cookies[PREVIEW_COOKIE] !== undefined) reply?.clearCookie(PREVIEW_COOKIE, cookieBase);
      return { notice: check.reason };
    }
    const kept = (await releases.get(check.app)).releases.some((release) => release.id === check.release);
    if (!kept) {
      reply?.clearCookie(PREVIEW_COOKIE, cookieBase);
      return { notice: 'missing' as const };
    }
    if (fromLink && reply) reply.setCookie(PREVIEW_COOKIE, fromLink, { ...cookieBase, maxAge: Math.floor((check.expiresAt - now()) / 1000) });
    const { app, release, expiresAt } = check;
    return { pin: { app, release, expiresAt } };
  }

  /**
   * The releases for a request. With `reply` (a page), cookies are set as needed: a bucket for a
   * browser's first navigation during a canary, the preview token from a link. Without it (the
   * remotes document a page asks for after a failed load) the cookies are only read.
   */
  return async function visitorReleases(request: FastifyRequest, reply?: FastifyReply): Promise<VisitorReleases> {
    const [override, { pin, notice }, canary] = await Promise.all([overrides?.read(request, reply), previewOf(request, reply), anyCandidate()]);
    let bucket = parseBucket(request.cookies[RELEASE_BUCKET_COOKIE]);
    if (canary && bucket === undefined && reply && request.headers['sec-fetch-mode'] === 'navigate') {
      bucket = randomInt(RELEASE_BUCKETS);
      reply.setCookie(RELEASE_BUCKET_COOKIE, String(bucket), { ...cookieBase, maxAge: RELEASE_BUCKET_MAX_AGE_DAYS * 86_400 });
    }
    if (override) {
      const choice: ReleaseChoice = { bucket: canary ? bucket : undefined, override };
      return { remotes: await remotesDocument(releases, remoteUrls, choice), override, canary };
    }
    const choice: ReleaseChoice = { bucket: canary ? bucket : undefined, pin };
    return { remotes: await remotesDocument(releases, remoteUrls, choice), preview: pin, previewNotice: notice, canary };
  };
}
