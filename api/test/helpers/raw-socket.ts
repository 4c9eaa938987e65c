import net from 'node:net';

/** A raw TCP client, for what an HTTP library would not do: stall mid-body, watch the socket close. */
export interface RawClient {
  socket: net.Socket;
  /** Everything received so far. */
  received(): string;
  /** Resolves when the server closes the connection (or it errors). */
  closed: Promise<void>;
}

export async function openRawClient(baseUrl: string): Promise<RawClient> {
  const url = new URL(baseUrl);
  const socket = net.connect(Number(url.port), url.hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  const closed = new Promise<void>((resolve) => {
    socket.once('close', () => resolve());
    socket.once('error', () => resolve());
  });
  return { socket, received: () => received, closed };
}

/** A JSON POST (with `headers` besides its own) split in two: its headers with the first `sent` bytes of the body, and the rest. */
export function partialPost(path: string, body: string, sent: number, headers: Record<string, string> = {}): { start: Buffer; rest: Buffer } {
  const bytes = Buffer.from(body, 'utf8');
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  const head = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${bytes.length}\r\n${extra}\r\n`;
  return { start: Buffer.concat([Buffer.from(head, 'latin1'), bytes.subarray(0, sent)]), rest: bytes.subarray(sent) };
}
