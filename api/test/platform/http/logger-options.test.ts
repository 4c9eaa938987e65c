import { loggerOptions, wantsPrettyLogs } from '../../../src/platform/http/logger-options';

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
    expect(loggerOptions({ logLevel: 'warn', logFormat: 'auto' }, false)).toEqual({ level: 'warn' });
  });

  it('writes readable lines through a stream of its own', () => {
    const options = loggerOptions({ logLevel: 'debug', logFormat: 'auto' }, true);
    expect(options).toMatchObject({ level: 'debug', stream: expect.objectContaining({ write: expect.any(Function) }) });
  });
});
