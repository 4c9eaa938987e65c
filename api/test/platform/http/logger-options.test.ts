import { loggerOptions, redactedUrl, wantsPrettyLogs } from '../../../src/platform/http/logger-options';

describe('wantsPrettyLogs', () => {
  it.each([
    ['auto', true, true],
    ['auto', false, false],
    ['pretty', false, true],
    ['pretty', true, true],
    ['json', true, false],
    ['json', false, false],
  ] as const)('LOG_FORMAT=%s with stdout a terminal: %s → readable lines: %s', (format, tty, pretty) => {
    expect(wantsPrettyLogs(format, tty)).toBe(pretty);
  });
});

describe('loggerOptions', () => {
  it('turns logging off for LOG_LEVEL=silent, whatever the format', () => {
    expect(loggerOptions({ logLevel: 'silent', logFormat: 'pretty' }, true)).toBe(false);
  });

  it('leaves JSON lines to pino itself, at the level asked for', () => {
    expect(loggerOptions({ logLevel: 'warn', logFormat: 'auto' }, false)).toEqual({ level: 'warn', serializers: { req: expect.any(Function) } });
  });

  it('writes readable lines through a stream of its own', () => {
    const options = loggerOptions({ logLevel: 'debug', logFormat: 'auto' }, true);
    expect(options).toMatchObject({ level: 'debug', stream: expect.objectContaining({ write: expect.any(Function) }) });
  });
});

describe('redactedUrl', () => {
  it.each([
    ['/api/staff/data-requests?subject=olena%40example.com', '/api/staff/data-requests?subject=[redacted]'],
    ['/api/staff/leads?status=new&q=%D0%9A%D0%BE%D0%B2%D0%B0%D0%BB%D1%8C&kind=contact', '/api/staff/leads?status=new&q=[redacted]&kind=contact'],
    ['/x?email=a%40b.c&phone=%2B380671234567&page=2', '/x?email=[redacted]&phone=[redacted]&page=2'],
    // However the name is spelled: Fastify decodes it before the route reads it.
    ['/x?%73ubject=a%40b.c&Email=a%40b.c&email', '/x?%73ubject=[redacted]&Email=[redacted]&email=[redacted]'],
    ['/blog?category=SMM&page=2', '/blog?category=SMM&page=2'],
    ['/api/staff/data-requests/lookup', '/api/staff/data-requests/lookup'],
    ['/x?%E0%A4%A=1&q=x', '/x?%E0%A4%A=1&q=[redacted]'],
  ])('%s is logged as %s', (url, logged) => {
    expect(redactedUrl(url)).toBe(logged);
  });

  it('is what the request log shows', () => {
    const options = loggerOptions({ logLevel: 'info', logFormat: 'json' }, false) as { serializers: { req: (request: object) => { url: string } } };
    const request = { method: 'GET', url: '/api/staff/data-requests/export?subject=olena%40example.com', headers: {}, host: 'khvylia.example', ip: '127.0.0.1' };
    expect(options.serializers.req(request)).toEqual({ method: 'GET', url: '/api/staff/data-requests/export?subject=[redacted]', host: 'khvylia.example', remoteAddress: '127.0.0.1' });
  });
});
