import negotiate from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BodyEncoding, CachedBody } from './content-cache';

/** Reads may be cached briefly by browsers and proxies, and revalidated with the ETag. */
export const READ_CACHE_CONTROL = 'public, max-age=60';

const ENCODINGS: BodyEncoding[] = ['br', 'gzip'];

function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch === '*' || ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** The route's response serializer (its 200 schema) applied once, for the cache to keep. */
export function serializeOnce(reply: FastifyReply, data: unknown): string {
  const json = reply.serialize(data);
  return typeof json === 'string' ? json : Buffer.from(json as ArrayBuffer).toString('utf8');
}

/**
 * Sends a cached JSON body: a 304 with no body when the client holds it (If-None-Match),
 * else the body compressed once for everyone who accepts brotli or gzip, or as is.
 */
export function sendCached(request: FastifyRequest, reply: FastifyReply, body: CachedBody): FastifyReply {
  reply.header('etag', body.etag).header('cache-control', READ_CACHE_CONTROL).header('vary', 'accept-encoding');
  if (matchesEtag(request.headers['if-none-match'], body.etag)) return reply.code(304).send();
  reply.type('application/json; charset=utf-8');
  const accepted = request.headers['accept-encoding'];
  const encoding = accepted ? negotiate(accepted.toLowerCase().replace(/\*|x-gzip/g, 'gzip'), ENCODINGS) : null;
  if (encoding) return reply.header('content-encoding', encoding).send(body.encoded(encoding));
  return reply.send(body.json);
}
