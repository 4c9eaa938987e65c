import negotiate from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BodyEncoding, CachedBody } from './cached-body';

/** Reads may be cached briefly by browsers and proxies, and revalidated with the ETag. */
export const READ_CACHE_CONTROL = 'public, max-age=60';

const ENCODINGS: BodyEncoding[] = ['br', 'gzip'];

export interface SendCachedOptions {
  contentType?: string;
  cacheControl?: string;
}

function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch === '*' || ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** The best encoding the client accepts of those bodies are kept in, or null for none. */
export function acceptedEncoding(request: FastifyRequest): BodyEncoding | null {
  const accepted = request.headers['accept-encoding'];
  return accepted ? (negotiate(accepted.toLowerCase().replace(/\*|x-gzip/g, 'gzip'), ENCODINGS) as BodyEncoding | null) : null;
}

/** The route's response serializer (its 200 schema) applied once, for the cache to keep. */
export function serializeOnce(reply: FastifyReply, data: unknown): string {
  const json = reply.serialize(data);
  return typeof json === 'string' ? json : Buffer.from(json as ArrayBuffer).toString('utf8');
}

/**
 * Sends a cached body (JSON unless told otherwise) with the reply's status: for a 200, a 304 with
 * no body when the client holds it (If-None-Match); else the body compressed once for everyone who
 * accepts brotli or gzip, or as is.
 */
export function sendCached(
  request: FastifyRequest,
  reply: FastifyReply,
  body: CachedBody,
  { contentType = 'application/json; charset=utf-8', cacheControl = READ_CACHE_CONTROL }: SendCachedOptions = {},
): FastifyReply {
  const encoding = acceptedEncoding(request);
  const etag = body.etag;
  reply.header('etag', etag).header('cache-control', cacheControl).header('vary', 'accept-encoding');
  if (reply.statusCode === 200 && matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
  reply.type(contentType);
  // nginx's own header (it never passes it on): a browser may keep this copy, the shell's cache not.
  if (!body.shareable(encoding)) reply.header('x-accel-expires', '0');
  if (encoding) return reply.header('content-encoding', encoding).send(body.encoded(encoding));
  return reply.send(body.text);
}
