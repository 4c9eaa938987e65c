import { PREVIEW_QUERY_PARAM, PREVIEW_TOKEN_HOURS } from '@agency/shared';
import type { Db } from '../../platform/db/connection';
import { siteSecret } from '../../platform/db/site-secrets';
import { isAppName, type AppName } from '../releases/apps';
import { isReleaseId } from '../releases/release-repository';
import { signClaims, signedClaims } from './signed-claims';

/** What a preview link pins one browser to. */
export interface PreviewPin {
  app: AppName;
  release: string;
  /** Milliseconds since the Unix epoch. */
  expiresAt: number;
}

export type PreviewCheck = ({ valid: true } & PreviewPin) | { valid: false; reason: 'invalid' | 'expired' };

/**
 * The secret preview links are signed with: the configured one (RELEASE_PREVIEW_SECRET, checked by
 * config), else a random one the site's database keeps (made by whichever process needs it
 * first), so the release command, the release API and every server process of one site agree
 * without configuration, on any machine.
 */
export async function loadPreviewSecret(configured: string | undefined, db: Db): Promise<string> {
  return configured ?? siteSecret(db, 'preview-links');
}

/** `<payload>.<signature>`, both base64url: the app, the release and the expiry, signed with HMAC-SHA256. */
export function signPreviewToken(pin: Pick<PreviewPin, 'app' | 'release'>, secret: string, now = Date.now()): string {
  return signClaims({ app: pin.app, release: pin.release, exp: now + PREVIEW_TOKEN_HOURS * 3_600_000 }, secret);
}

/** Whether a token is one this site signed, for a release id and app it knows, and still valid. */
export function verifyPreviewToken(token: string, secret: string, now = Date.now()): PreviewCheck {
  const invalid: PreviewCheck = { valid: false, reason: 'invalid' };
  const claims = signedClaims(token, secret);
  if (!claims) return invalid;
  const { app, release, exp } = claims;
  if (typeof app !== 'string' || !isAppName(app) || typeof release !== 'string' || !isReleaseId(release) || typeof exp !== 'number') return invalid;
  if (exp <= now) return { valid: false, reason: 'expired' };
  return { valid: true, app, release, expiresAt: exp };
}

/** The link that opens a preview of `release` in one browser. */
export function previewUrl(siteUrl: string, token: string): string {
  const url = new URL('/', siteUrl);
  url.searchParams.set(PREVIEW_QUERY_PARAM, token);
  return url.toString();
}
