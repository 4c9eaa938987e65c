import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContextOptions } from 'playwright-core';

/** Headers that belong to one hop (the browser to this proxy), not to the request it forwards. */
const HOP_BY_HOP = new Set(['connection', 'proxy-connection', 'keep-alive', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

export interface VisitorNetwork {
  /** What a browser context takes to send every request, beacons at unload included, through it. */
  contextOptions: Pick<BrowserContextOptions, 'proxy'>;
  close(): Promise<void>;
}

/**
 * A visitor's own network: an HTTP proxy a browser context sends all its requests through, which
 * reaches the site from `address` (a loopback address of its own, 127.x.y.z). So the site sees each
 * visitor as a client of its own, by the address its requests come from, as it does on the
 * internet; no header a test could forget on some request (a beacon sent as the page unloads).
 */
export async function startVisitorNetwork(address: string): Promise<VisitorNetwork> {
  const agent = new http.Agent({ keepAlive: true, localAddress: address });
  const server = http.createServer((request, response) => {
    const target = new URL(request.url ?? '/');
    const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
    const upstream = http.request(
      { host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: request.method, headers, agent },
      (answer) => {
        const kept = Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name));
        response.writeHead(answer.statusCode ?? 502, Object.fromEntries(kept) as http.OutgoingHttpHeaders);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    // Chromium sends loopback addresses past any proxy unless told not to.
    contextOptions: { proxy: { server: `http://127.0.0.1:${port}`, bypass: '<-loopback>' } },
    async close() {
      agent.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
