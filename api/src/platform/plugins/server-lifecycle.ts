import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ApiError, MESSAGES } from '../http/api-error';

/**
 * How long the server waits for a client. Without these, one client that sends headers and part
 * of a body and then stalls keeps its request, and so a graceful shutdown, open for five minutes
 * (Node's default request timeout).
 * - A request, body included, must arrive within 30 s: the largest body (64 KiB) needs that only
 *   on a link slower than 20 kbit/s. Its headers within 10 s.
 * - An idle keep-alive connection stays 65 s: longer than nginx's upstream keepalive (60 s),
 *   so the proxy, not the API, closes it and never reuses a connection as it closes.
 */
export const SERVER_TIMEOUTS = {
  requestTimeout: 30_000,
  headersTimeout: 10_000,
  keepAliveTimeout: 65_000,
} as const satisfies Partial<FastifyServerOptions> & { headersTimeout: number };

/** Where a URL with malformed percent-encoding is routed, so it gets the API's error format and headers. */
export const BAD_URL_PATH = '/__bad-url';

/**
 * The path and query of a request's target, also when a client sent it in absolute form
 * (`GET http://evil.example/ HTTP/1.1`, which HTTP servers must accept): its host is the client's
 * choice like the Host header, and goes nowhere, not into a route nor into a page.
 */
function originForm(target: string): string {
  if (target.startsWith('/')) return target;
  const url = URL.canParse(target) ? new URL(target) : undefined;
  return url ? `${url.pathname}${url.search}` : target;
}

/**
 * Every request's URL as the routes see it: a target in absolute form as its path and query.
 * Fastify's own answer to a malformed URL (`/api/blog/%`, `%c0%ae`) is an English body sent
 * before any hook, so without the security headers. Such URLs are rewritten to BAD_URL_PATH,
 * whose route answers 400 in the API's format through every hook.
 */
export function rewriteRequestUrl(request: IncomingMessage): string {
  const url = originForm(request.url ?? '/');
  const queryStart = url.indexOf('?');
  try {
    decodeURIComponent(queryStart === -1 ? url : url.slice(0, queryStart));
    return url;
  } catch {
    return BAD_URL_PATH;
  }
}

const RETRY_AFTER_SECONDS = '5';
const LAST_SECOND_MS = 1000;

interface DrainState {
  draining: boolean;
  inFlight: number;
  idle: Set<() => void>;
  /** The value of SELF_REQUEST_HEADER, known to this process only. */
  selfToken: string;
}

/**
 * Marks the page renderer's requests to this process's own API. Each is part of a page request
 * already in flight, so it is served while draining: a page being rendered when a shutdown starts
 * is finished whole, not rendered from 503 answers.
 */
const SELF_REQUEST_HEADER = 'x-agency-self-request';

const states = new WeakMap<FastifyInstance, DrainState>();

/**
 * Registers the server's side of a graceful shutdown (call after helmet, so its headers apply):
 * once draining starts, every new request, on a new or an open connection, /api/health included,
 * is answered 503 in the API's format with `connection: close`, so a load balancer takes this
 * process out and clients retry elsewhere, while requests already in flight finish.
 */
async function drain(app: FastifyInstance): Promise<void> {
  const state: DrainState = { draining: false, inFlight: 0, idle: new Set(), selfToken: randomUUID() };
  states.set(app, state);
  app.addHook('onRequest', async (request, reply) => {
    if (state.draining && request.headers[SELF_REQUEST_HEADER] !== state.selfToken) {
      const error = new ApiError(503, 'SHUTTING_DOWN', MESSAGES.unavailable);
      return reply
        .code(503)
        .header('connection', 'close')
        .header('retry-after', RETRY_AFTER_SECONDS)
        .header('cache-control', 'no-store')
        // `status` is what /api/health's 503 carries; the other routes' error schema leaves it out.
        .send({ status: 'unavailable', ...error.toBody() });
    }
    state.inFlight += 1;
    // 'close' fires once whether the response was sent or the client went away.
    reply.raw.once('close', () => {
      state.inFlight -= 1;
      if (state.inFlight === 0) for (const resolve of state.idle) resolve();
    });
    return undefined;
  });
}

/** The headers of a request this process makes to its own API for a request in flight (see SELF_REQUEST_HEADER). */
export function selfRequestHeaders(app: FastifyInstance): Record<string, string> {
  const state = states.get(app);
  return state ? { [SELF_REQUEST_HEADER]: state.selfToken } : {};
}

/**
 * Starts draining and resolves once no request is in flight (true) or after `timeoutMs` (false).
 */
export function drainRequests(app: FastifyInstance, timeoutMs: number): Promise<boolean> {
  const state = states.get(app);
  if (!state) return Promise.resolve(true);
  state.draining = true;
  if (state.inFlight === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (drained: boolean) => {
      clearTimeout(timer);
      state.idle.delete(onIdle);
      resolve(drained);
    };
    const onIdle = () => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    state.idle.add(onIdle);
  });
}

/**
 * A graceful, bounded shutdown: drain (new requests get 503, in-flight ones finish), then close
 * the listener and every connection, and the database (onClose hooks). Whatever is still open
 * after `timeoutMs`, a stalled client for one, is cut off.
 */
export async function shutDown(app: FastifyInstance, timeoutMs: number): Promise<{ drained: boolean }> {
  const drained = await drainRequests(app, timeoutMs);
  if (!drained) app.server.closeAllConnections();
  const closed = app.close();
  // Idle connections are closed by Fastify and answered ones close themselves (`connection:
  // close`); one that turned busy in the meantime is cut after a last second.
  const cutOff = setTimeout(() => app.server.closeAllConnections(), LAST_SECOND_MS);
  try {
    await closed;
  } finally {
    clearTimeout(cutOff);
  }
  return { drained };
}

/** The server's side of a graceful shutdown: register after helmet, so its headers apply to the 503s. */
export const drainPlugin = fp(drain, { name: 'drain' });
