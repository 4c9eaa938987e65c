import http from 'node:http';

/** One request the proxy answered. */
export interface ProxiedRequest {
  method: string;
  url: string;
  /** The request's Sec-Fetch-Dest: `document` for a navigation. */
  dest: string | undefined;
  /** Which backend answered (its index). */
  backend: number;
  status: number;
}

export interface SiteProxy {
  origin: string;
  /**
   * Which backend (index) answers a request; undefined: the next one in turn (round robin,
   * request by request, whatever connection it came on).
   */
  route: (request: http.IncomingMessage) => number | undefined;
  /** Every request answered so far, in the order the answers began. */
  log: ProxiedRequest[];
  /** Requests no backend could be connected for (each backend tried once). */
  unanswered: number;
  close(): Promise<void>;
}

export interface SiteProxyOptions {
  port: number;
  /** The backends' `host:port`, read for every request (a backend may move). */
  backends: () => string[];
  /**
   * Connection failover, as a load balancer in front of several machines does: a backend that
   * cannot be connected to within this many ms is skipped for `downForMs` and the request is sent
   * to the next one (nothing was sent yet, so even a POST is safe to send again). Unset: none.
   */
  connectTimeoutMs?: number;
  downForMs?: number;
  /**
   * A health check, as a load balancer makes: this path asked of every backend each second on a
   * new connection; a backend that does not answer 2xx within a second gets no new request until
   * it does again. Unset: none.
   */
  healthPath?: string;
}

const HOP_BY_HOP = new Set(['connection', 'proxy-connection', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/**
 * A reverse proxy on 127.0.0.1 forwarding each request to one of several backends. Request by
 * request, not connection by connection: a browser keeps its connections open, so per-connection
 * routing would send a whole page (or a whole test) to one backend.
 */
export async function startSiteProxy({ port, backends, connectTimeoutMs, downForMs = 10_000, healthPath }: SiteProxyOptions): Promise<SiteProxy> {
  // An idle connection is closed here well before the backends' own idle timeout (the shell's
  // nginx: 60 s), so no request goes out on one a backend is closing at that moment, which would
  // reach the browser as an empty response.
  const agent = new http.Agent({ keepAlive: true, timeout: 20_000 });
  /** When each backend (by address) may be tried again after a failed connection. */
  const downUntil = new Map<string, number>();
  /** Backends (by address) whose last health check failed. */
  const unhealthy = new Set<string>();
  let turn = 0;
  const checkHealth = () =>
    Promise.all(
      backends().map(
        (address) =>
          new Promise<void>((resolve) => {
            const check = http.get(`http://${address}${healthPath}`, { agent: false, timeout: 1_000 }, (answer) => {
              answer.resume();
              if ((answer.statusCode ?? 0) >= 200 && (answer.statusCode ?? 0) < 300) unhealthy.delete(address);
              else unhealthy.add(address);
              resolve();
            });
            check.on('timeout', () => check.destroy(new Error('timeout')));
            check.on('error', () => {
              unhealthy.add(address);
              resolve();
            });
          }),
      ),
    );
  const healthTimer = healthPath ? setInterval(() => void checkHealth(), 1_000) : undefined;
  const proxy: SiteProxy = {
    origin: `http://127.0.0.1:${port}`,
    route: () => undefined,
    log: [],
    unanswered: 0,
    close: async () => {
      clearInterval(healthTimer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };

  function forward(request: http.IncomingMessage, response: http.ServerResponse, body: Buffer, backend: number, triesLeft: number): void {
    const addresses = backends();
    const address = addresses[backend % addresses.length]!;
    const [host, backendPort] = [address.slice(0, address.lastIndexOf(':')), Number(address.slice(address.lastIndexOf(':') + 1))];
    const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
    let connected = false;
    const upstream = http.request({ host, port: backendPort, path: request.url, method: request.method, headers, agent }, (answer) => {
      proxy.log.push({
        method: request.method ?? 'GET',
        url: request.url ?? '/',
        dest: request.headers['sec-fetch-dest'] as string | undefined,
        backend: backend % addresses.length,
        status: answer.statusCode ?? 0,
      });
      const kept = Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name));
      response.writeHead(answer.statusCode ?? 502, Object.fromEntries(kept) as http.OutgoingHttpHeaders);
      answer.pipe(response);
    });
    let failed = false;
    const failedToConnect = () => {
      // Once per try: a destroyed request reports its own error after the timer gave up on it.
      if (failed) return;
      failed = true;
      if (connected) return response.destroy();
      upstream.destroy();
      downUntil.set(address, Date.now() + downForMs);
      if (triesLeft > 1) return forward(request, response, body, nextUp(backend + 1), triesLeft - 1);
      proxy.unanswered += 1;
      response.destroy();
    };
    upstream.on('socket', (socket) => {
      // A kept-alive socket is connected already.
      if (!socket.connecting) connected = true;
      else if (connectTimeoutMs !== undefined) {
        const timer = setTimeout(failedToConnect, connectTimeoutMs);
        socket.once('connect', () => {
          connected = true;
          clearTimeout(timer);
        });
      } else socket.once('connect', () => (connected = true));
    });
    upstream.on('error', () => (connectTimeoutMs === undefined ? response.destroy() : failedToConnect()));
    // A client that gave up (a form's try timed out) takes its request off the backend's connection.
    response.on('close', () => {
      if (!response.writableFinished) upstream.destroy();
    });
    upstream.end(body);
  }

  /** `from`, or the first backend after it that is not marked down. */
  function nextUp(from: number): number {
    const addresses = backends();
    for (let step = 0; step < addresses.length; step += 1) {
      const index = (from + step) % addresses.length;
      if ((downUntil.get(addresses[index]!) ?? 0) <= Date.now() && !unhealthy.has(addresses[index]!)) return index;
    }
    return from % addresses.length;
  }

  const server = http.createServer((request, response) => {
    const chosen = proxy.route(request);
    const backend = chosen ?? nextUp(turn++);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => forward(request, response, Buffer.concat(chunks), backend, chosen === undefined && connectTimeoutMs !== undefined ? backends().length : 1));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return proxy;
}
