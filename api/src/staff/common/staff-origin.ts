/**
 * Who the console is for WebAuthn and cookies, from SITE_URL alone (never from a request): the
 * relying party is SITE_URL's host, the only allowed origin SITE_URL itself, and the session
 * cookie is Secure whenever the site is served over https. Off production SITE_URL defaults to
 * http://localhost:<port>; WebAuthn refuses IP addresses, so the console is opened at localhost.
 */
export interface StaffOrigin {
  origin: string;
  rpId: string;
  rpName: string;
  secureCookie: boolean;
}

export function staffOriginOf(siteUrl: string, rpName: string): StaffOrigin {
  const url = new URL(siteUrl);
  return { origin: url.origin, rpId: url.hostname, rpName, secureCookie: url.protocol === 'https:' };
}
