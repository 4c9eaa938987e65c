import net from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 between a client (the API) and a server (the test database), to take
 * the server away from the client and give it back without touching either.
 */
export interface TcpProxy {
  port: number;
  /**
   * Cuts the server off as a killed or restarting host would look: every open connection is
   * ended, and new ones are accepted but never answered (a black hole) until `restore`.
   */
  cut(): void;
  /** Forwards new connections again; the ones held while cut are closed (their clients gave up). */
  restore(): void;
  /** Forwards each new connection only `ms` after it arrived, as a busy server answers (0: at once). */
  slowDown(ms: number): void;
  /**
   * Resolves when what one client has sent so far (as latin1 text) first matches `pattern`: the
   * bytes that made it match are dropped, and from then on every connection goes silent both ways
   * without being closed and new ones are never answered, as a client's host looks to the server
   * when it loses power (no FIN, no RST).
   */
  freezeOn(pattern: RegExp): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let cut = false;
  let frozen = false;
  let freeze: { pattern: RegExp; done: () => void } | undefined;
  const forwarded = new Set<net.Socket>();
  const held = new Set<net.Socket>();

  const track = (set: Set<net.Socket>, socket: net.Socket) => {
    set.add(socket);
    socket.on('close', () => set.delete(socket));
    // A peer that goes away is expected here; the other side is closed with it below.
    socket.on('error', () => undefined);
  };

  let connectDelayMs = 0;

  const server = net.createServer((client) => {
    if (cut || frozen) {
      // Never read from nor answered: the client waits until its own timeout.
      track(held, client);
      return;
    }
    if (connectDelayMs === 0) forward(client);
    else {
      track(held, client);
      setTimeout(() => {
        held.delete(client);
        if (!client.destroyed) forward(client);
      }, connectDelayMs);
    }
  });

  const forward = (client: net.Socket) => {
    const upstream = net.connect(target);
    track(forwarded, client);
    track(forwarded, upstream);
    client.on('close', () => frozen || upstream.destroy());
    upstream.on('close', () => frozen || client.destroy());
    let sent = '';
    client.on('data', (chunk: Buffer) => {
      if (freeze && !frozen) sent += chunk.toString('latin1');
      if (!frozen && freeze?.pattern.test(sent)) {
        frozen = true;
        freeze.done();
      }
      if (!frozen) upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => frozen || client.write(chunk));
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');

  return {
    port: address.port,
    cut() {
      cut = true;
      for (const socket of forwarded) socket.destroy();
    },
    restore() {
      cut = false;
      for (const socket of held) socket.destroy();
    },
    slowDown(ms) {
      connectDelayMs = ms;
    },
    freezeOn(pattern) {
      return new Promise((resolve) => (freeze = { pattern, done: resolve }));
    },
    async close() {
      for (const socket of [...forwarded, ...held]) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A proxy in front of the PostgreSQL database at `databaseUrl`, and the URL that reaches that database through it. */
export async function startDatabaseProxy(databaseUrl: string): Promise<{ proxy: TcpProxy; url: string }> {
  const url = new URL(databaseUrl);
  const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port) });
  url.host = `127.0.0.1:${proxy.port}`;
  return { proxy, url: url.toString() };
}
