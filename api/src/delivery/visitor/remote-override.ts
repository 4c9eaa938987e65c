import { isOverridableRemote, REMOTE_OVERRIDE_COOKIE, REMOTE_OVERRIDE_HOURS, type RemoteName, type RemoteOverrideView } from '@agency/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ReleaseReader } from '../releases/reader';
import { isReleaseId } from '../releases/release-repository';
import { signClaims, signedClaims } from './signed-claims';

/** What one remote of the live site is for one browser: a kept release, or a build on the overriding member's own machine. */
export type OverrideTarget = { release: string } | { port: number };

/** An override as its cookie names it: signed, so only this site's console can have set it. */
export interface RemoteOverride {
  app: RemoteName;
  target: OverrideTarget;
  /** The hash of the staff session that set it (staff_sessions.id_hash): it ends with that session. */
  session: string;
  /** Milliseconds since the Unix epoch. */
  expiresAt: number;
}

/** Every answer an override shapes (its pages, its /remotes.json) is for its browser alone, and kept nowhere. */
export const OVERRIDE_CACHE_CONTROL = 'private, no-store';

/** The name of the site secret override cookies are signed with (site-secrets.ts). */
export const OVERRIDE_SECRET = 'remote-overrides';

/**
 * The override cookie's attributes: first-party, never read by scripts, and sent on no request
 * another site starts (SameSite=Strict): a link from elsewhere opens the page everyone gets.
 */
export function overrideCookieOptions(secure: boolean) {
  return { path: '/', httpOnly: true, sameSite: 'strict', secure } as const;
}

/** `<payload>.<signature>`, both base64url: the app, the target, the session and the expiry, signed with HMAC-SHA256. */
export function signOverrideToken(override: RemoteOverride, secret: string): string {
  const { app, target, session, expiresAt } = override;
  return signClaims({ app, ...target, session, exp: expiresAt }, secret);
}

/** The override a token names, when this site signed it and it has not expired. */
export function verifyOverrideToken(token: string, secret: string, now = Date.now()): RemoteOverride | undefined {
  const claims = signedClaims(token, secret);
  if (!claims) return undefined;
  const { app, release, port, session, exp } = claims;
  if (typeof app !== 'string' || !isOverridableRemote(app) || typeof session !== 'string' || typeof exp !== 'number' || exp <= now) return undefined;
  if (typeof release === 'string' && isReleaseId(release) && port === undefined) return { app, target: { release }, session, expiresAt: exp };
  if (typeof port === 'number' && Number.isInteger(port) && release === undefined) return { app, target: { port }, session, expiresAt: exp };
  return undefined;
}

/** An override as the console shows it. */
export function overrideView(override: RemoteOverride): RemoteOverrideView {
  const { target } = override;
  return {
    app: override.app,
    release: 'release' in target ? target.release : null,
    port: 'port' in target ? target.port : null,
    expiresAt: new Date(override.expiresAt).toISOString(),
  };
}

export interface RemoteOverridesOptions {
  releases: ReleaseReader;
  /** The secret override cookies are signed with, read (or made) when first needed. */
  secret: () => Promise<string>;
  /**
   * Whether the staff session (by its hash) is still live and its member may still act on `app`'s
   * releases: the console's answer, asked once per request that carries an override (one read).
   */
  holderMayOverride: (session: string, app: RemoteName) => Promise<boolean>;
  secureCookies: boolean;
  now?: () => number;
}

/**
 * Overrides for one browser: set by a release manager's console (the staff routes, through
 * app.ts), read on every page and `/remotes.json` of that browser. One override per browser: a new
 * one replaces it. A cookie that is forged, expired, of a session that ended, of a member who may
 * no longer act on the app, or of a release no longer kept is ignored, and cleared on a page.
 */
export function createRemoteOverrides({ releases, secret, holderMayOverride, secureCookies, now = Date.now }: RemoteOverridesOptions) {
  const cookie = overrideCookieOptions(secureCookies);

  /** Whether `release` is kept; `fresh`: read now, for one the console may have just staged on another process. */
  const isKept = async (app: RemoteName, release: string, fresh = false) => (await releases.get(app, { fresh })).releases.some((kept) => kept.id === release);

  /** The request's override when its cookie is signed and unexpired (no database read). */
  async function signed(request: FastifyRequest): Promise<RemoteOverride | undefined> {
    const token = request.cookies[REMOTE_OVERRIDE_COOKIE];
    return token ? verifyOverrideToken(token, await secret(), now()) : undefined;
  }

  return {
    /** The override this request's browser holds, checked in full; with `reply`, a cookie that no longer holds is cleared. */
    async read(request: FastifyRequest, reply?: FastifyReply): Promise<RemoteOverride | undefined> {
      if (request.cookies[REMOTE_OVERRIDE_COOKIE] === undefined) return undefined;
      const override = await signed(request);
      let holds: boolean;
      try {
        holds =
          override !== undefined &&
          (!('release' in override.target) || (await isKept(override.app, override.target.release))) &&
          (await holderMayOverride(override.session, override.app));
      } catch {
        // The session could not be read (the database away): the page everyone gets, the cookie kept for later.
        return undefined;
      }
      if (holds) return override;
      reply?.clearCookie(REMOTE_OVERRIDE_COOKIE, cookie);
      return undefined;
    },

    /** This browser's override when the signed-in `session` set it (the console's view of it). */
    async of(request: FastifyRequest, session: string): Promise<RemoteOverrideView | undefined> {
      const override = await signed(request);
      return override && override.session === session ? overrideView(override) : undefined;
    },

    /**
     * Sets this browser's override of `app` (replacing any other) for REMOTE_OVERRIDE_HOURS;
     * undefined, with nothing set, when `release` is not a kept release of the app.
     */
    async set(reply: FastifyReply, request: { app: RemoteName; target: OverrideTarget; session: string }): Promise<RemoteOverrideView | undefined> {
      if ('release' in request.target && !(await isKept(request.app, request.target.release, true))) return undefined;
      const override: RemoteOverride = { ...request, expiresAt: now() + REMOTE_OVERRIDE_HOURS * 3_600_000 };
      reply.setCookie(REMOTE_OVERRIDE_COOKIE, signOverrideToken(override, await secret()), { ...cookie, maxAge: REMOTE_OVERRIDE_HOURS * 3600 });
      return overrideView(override);
    },

    /** Ends this browser's override. */
    clear(reply: FastifyReply): void {
      reply.clearCookie(REMOTE_OVERRIDE_COOKIE, cookie);
    },
  };
}

export type RemoteOverrides = ReturnType<typeof createRemoteOverrides>;
