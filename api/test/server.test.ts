import { articleFiles } from '../src/site/content/content-sync';
import { SEED_SERVICES } from '../src/site/content/services';
import { createDatabase } from '../src/platform/db/connection';
import { listBlogPosts, listServices } from '../src/site/content/content-repository';
import { listContactMessages } from '../src/site/leads/submissions/submissions-repository';
import { REPO_CONTENT_DIR } from './helpers/app';
import { createTestDatabase, type TestDatabase } from './helpers/database';
import { httpRequest } from './helpers/http';
import { BROWSER_FETCH_HEADERS, spamFields } from './helpers/person-submission';
import { openRawClient, partialPost } from './helpers/raw-socket';
import { freePort, runToExit, startServerProcess } from './helpers/server-process';
import { describeWithTools } from './helpers/system-tools';

// Real server processes (the compiled server, as production runs it): durability, graceful shutdown, parallel start.
jest.setTimeout(90_000);

let testDb: TestDatabase;

beforeEach(async () => {
  testDb = await createTestDatabase();
});

afterEach(async () => {
  await testDb.drop();
});

function contactPayload(index: number) {
  return {
    name: `Клієнт №${index} 🚀`,
    email: `client${index}@example.com`,
    phone: `+380 67 000 ${String(index).padStart(4, '0')}`,
    company: `ТОВ «Тест ${index}»`,
    service_type: 'leads',
    message: `Повідомлення ${index}: '); DROP TABLE contact_messages; -- ґєїі`,
    website: '',
  };
}

type FilledForm = ReturnType<typeof contactPayload> & { form_token: string; proof: string };

/**
 * `total` people's contact messages as their forms send them: each with a form token and a proof
 * of its own, made with the secrets of the site on `databaseUrl` (its server made them as it
 * started). All made before a burst, as people fill their forms before they send them.
 */
async function filledForms(databaseUrl: string, total: number): Promise<FilledForm[]> {
  const db = createDatabase(databaseUrl, { poolSize: 1 });
  try {
    const forms: FilledForm[] = [];
    for (let index = 0; index < total; index += 1) forms.push({ ...contactPayload(index), ...(await spamFields(db, 'contact')) });
    return forms;
  } finally {
    await db.destroy();
  }
}

interface Ack {
  id: number;
  payload: FilledForm;
}

/**
 * Sends the `forms` with `concurrency` requests in flight, each from a browser, and calls
 * `onAck` after every 201. Returns the acknowledged ones and the count of failed requests.
 */
async function burst(baseUrl: string, forms: FilledForm[], concurrency: number, onAck: (acks: Ack[]) => void) {
  const acks: Ack[] = [];
  const statuses: number[] = [];
  let failed = 0;
  let next = 0;
  const worker = async () => {
    while (next < forms.length) {
      const payload = forms[next]!;
      next += 1;
      try {
        const response = await httpRequest(baseUrl, 'POST', '/api/contact', { json: payload, headers: { ...BROWSER_FETCH_HEADERS } });
        statuses.push(response.statusCode);
        if (response.statusCode === 201) {
          acks.push({ id: response.json<{ id: number }>().id, payload });
          onAck(acks);
        }
      } catch {
        failed += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { acks, failed, statuses };
}

async function expectAllStored(acks: Ack[]) {
  const db = createDatabase(testDb.url);
  try {
    const stored = new Map((await listContactMessages(db)).map((row) => [row.id, row]));
    for (const ack of acks) {
      const row = stored.get(ack.id);
      expect(row).toBeDefined();
      expect(row).toMatchObject({
        name: ack.payload.name,
        email: ack.payload.email,
        phone: ack.payload.phone,
        company: ack.payload.company,
        service_type: ack.payload.service_type,
        message: ack.payload.message,
      });
    }
    return stored.size;
  } finally {
    await db.destroy();
  }
}

it('loses no acknowledged submission when the server is SIGKILLed mid-burst', async () => {
  const server = await startServerProcess({ DATABASE_URL: testDb.url });
  let killed = false;
  const result = await burst(server.baseUrl, await filledForms(testDb.url, 400), 16, (acks) => {
    if (!killed && acks.length >= 40) {
      killed = true;
      server.child.kill('SIGKILL');
    }
  });
  expect(await server.exited).toBe('SIGKILL');
  // The kill really happened in the middle of the burst: some requests never got an answer.
  expect(result.acks.length).toBeGreaterThanOrEqual(40);
  expect(result.failed).toBeGreaterThan(0);
  expect(result.statuses.every((status) => status === 201)).toBe(true);
  const storedCount = await expectAllStored(result.acks);
  // Rows committed whose answer was lost in the kill may exist; acknowledged ones must.
  expect(storedCount).toBeGreaterThanOrEqual(result.acks.length);
});

it('on SIGTERM stops, closes the database and exits 0 without losing acknowledged work', async () => {
  const server = await startServerProcess({ DATABASE_URL: testDb.url });
  let signalled = false;
  const result = await burst(server.baseUrl, await filledForms(testDb.url, 200), 8, (acks) => {
    if (!signalled && acks.length >= 10) {
      signalled = true;
      server.child.kill('SIGTERM');
    }
  });
  expect(await server.exited).toBe(0);
  expect(signalled).toBe(true);
  // Requests answered during shutdown are either accepted (201) or refused with 503, never lost.
  expect(result.statuses.every((status) => status === 201 || status === 503)).toBe(true);
  await expectAllStored(result.acks);
});

/** A client that sent half a submission and stalls; resolved once the server has taken the request in. */
async function stallClientMidBody(baseUrl: string) {
  const stalled = await openRawClient(baseUrl);
  stalled.socket.write(partialPost('/api/contact', JSON.stringify(contactPayload(1)), 10).start);
  // The server has taken the request in once it answers the next one.
  expect((await httpRequest(baseUrl, 'GET', '/api/health')).statusCode).toBe(200);
  return stalled;
}

it('on SIGTERM cuts off a client stalled mid-body at SHUTDOWN_TIMEOUT and exits 0', async () => {
  const server = await startServerProcess({ DATABASE_URL: testDb.url, SHUTDOWN_TIMEOUT: '1000' });
  const stalled = await stallClientMidBody(server.baseUrl);
  server.child.kill('SIGTERM');
  // Before, the process stayed alive as long as the client did (minutes): the jest timeout catches that.
  expect(await server.exited).toBe(0);
  await stalled.closed;
  expect(server.output()).toMatch(/cut off requests still open/);
});

it('migrates, seeds and publishes the articles exactly once when several servers start together on one empty database', async () => {
  const servers = await Promise.all([1, 2, 3].map(() => startServerProcess({ DATABASE_URL: testDb.url })));
  for (const server of servers) {
    const response = await httpRequest(server.baseUrl, 'GET', '/api/services');
    expect(response.json<unknown[]>()).toHaveLength(SEED_SERVICES.length);
  }
  for (const server of servers) server.child.kill('SIGTERM');
  expect(await Promise.all(servers.map((server) => server.exited))).toEqual([0, 0, 0]);
  const db = createDatabase(testDb.url);
  try {
    expect(await listServices(db)).toHaveLength(SEED_SERVICES.length);
    expect(await listBlogPosts(db, 50)).toHaveLength(articleFiles(REPO_CONTENT_DIR).length);
  } finally {
    await db.destroy();
  }
});

describe('log format', () => {
  // Colours come from pino-pretty on a terminal, and anywhere when jest sets FORCE_COLOR.
  // eslint-disable-next-line no-control-regex -- matching the terminal's escape sequences is the point
  const ANSI = /\u001b\[[0-9;]*m/g;
  const lines = (text: string) =>
    text
      .replace(ANSI, '')
      .split(/\r?\n/)
      .filter((line) => line.trim() !== '');
  const isJson = (line: string) => {
    try {
      return typeof JSON.parse(line) === 'object';
    } catch {
      return false;
    }
  };
  const LISTENING = /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: Server listening at http:\/\/127\.0\.0\.1:\d+/;

  it('writes JSON lines when stdout is not a terminal', async () => {
    const server = await startServerProcess({ DATABASE_URL: testDb.url, LOG_LEVEL: 'info' });
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const entries = lines(server.stdout()).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries).toContainEqual(expect.objectContaining({ level: 30, msg: expect.stringMatching(/^Server listening at http:\/\/127\.0\.0\.1:\d+$/) }));
    expect(entries).toContainEqual(expect.objectContaining({ signal: 'SIGTERM', msg: expect.stringMatching(/^shutting down/) }));
  });

  it('writes readable lines with LOG_FORMAT=pretty, the last one before the exit included', async () => {
    const server = await startServerProcess({ DATABASE_URL: testDb.url, LOG_LEVEL: 'info', LOG_FORMAT: 'pretty', SHUTDOWN_TIMEOUT: '1000' });
    // A client stalled mid-body makes the shutdown log a warning just before process.exit().
    const stalled = await stallClientMidBody(server.baseUrl);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    await stalled.closed;
    const output = lines(server.stdout());
    expect(output.filter(isJson)).toEqual([]);
    expect(output).toContainEqual(expect.stringMatching(LISTENING));
    expect(output).toContainEqual(expect.stringMatching(/ INFO: incoming request .*"url":"\/api\/health"/));
    expect(output.at(-1)).toMatch(/ WARN: shutdown: cut off requests still open at the deadline/);
  });

  /** Starts the server with `env`: it must not start, exit with code 1 and say why on stderr. */
  async function expectRefusedStart(env: Record<string, string>, message: string): Promise<void> {
    const { code, stdout, stderr } = await runToExit('src/server.ts', [], { DATABASE_URL: testDb.url, PORT: String(await freePort()), ...env });
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
    expect(stderr).toContain(message);
  }

  it('refuses an unknown LOG_FORMAT: no start, exit code 1, a message naming the variable', () =>
    expectRefusedStart({ LOG_FORMAT: 'yaml' }, 'API failed to start: LOG_FORMAT must be json, pretty or auto (readable on a terminal, JSON otherwise), got "yaml"'));

  it('refuses to start in production without SITE_URL: exit code 1, a message saying why', () =>
    expectRefusedStart(
      { NODE_ENV: 'production', SITE_URL: '' },
      'API failed to start: SITE_URL must be set in production: the public origin of the site, such as https://khvylia.com.ua',
    ));

  describeWithTools('script')('on a terminal', () => {
    const count = (text: string, phrase: string) => text.split(phrase).length - 1;

    async function waitUntil(condition: () => boolean): Promise<void> {
      while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
    }

    /** Starts the server on a terminal, and stops it with Ctrl-C once it has answered. */
    async function runOnTerminal(env: Record<string, string>): Promise<string[]> {
      const server = await startServerProcess({ DATABASE_URL: testDb.url, LOG_LEVEL: 'info', ...env }, { terminal: true });
      expect((await httpRequest(server.baseUrl, 'GET', '/api/health')).statusCode).toBe(200);
      // The client may have its answer before the server logs the request's end: wait for that line,
      // or it could land after the shutdown's.
      await waitUntil(() => count(server.stdout(), 'request completed') >= count(server.stdout(), 'incoming request'));
      server.child.stdin?.write('\x03');
      expect(await server.exited).toBe(0);
      // The terminal echoes Ctrl-C as ^C before the next output.
      return lines(server.stdout().replace(/\^C/g, ''));
    }

    it('writes readable lines by default, up to the last one of a Ctrl-C', async () => {
      const output = await runOnTerminal({});
      expect(output.filter(isJson)).toEqual([]);
      expect(output).toContainEqual(expect.stringMatching(LISTENING));
      expect(output.at(-1)).toMatch(/ INFO: shutting down: .*"signal":"SIGINT"/);
    });

    it('writes JSON lines with LOG_FORMAT=json', async () => {
      const output = await runOnTerminal({ LOG_FORMAT: 'json' });
      expect(output.filter((line) => !isJson(line))).toEqual([]);
      const entries = output.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(entries).toContainEqual(expect.objectContaining({ msg: expect.stringMatching(/^Server listening at /) }));
      // Nothing after the shutdown's line (a failure shows whatever came after it).
      const shutdown = entries.findIndex((entry) => /^shutting down/.test(String(entry.msg)));
      expect(entries.slice(shutdown === -1 ? -1 : shutdown)).toEqual([expect.objectContaining({ signal: 'SIGINT', msg: expect.stringMatching(/^shutting down/) })]);
    });
  });
});
