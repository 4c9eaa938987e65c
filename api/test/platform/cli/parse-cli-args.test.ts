import { ARG_MESSAGES, HelpRequested, parseCliArgs, reportUsage, UsageError, type Io } from '../../../src/platform/cli/parse-cli-args';

const OPTIONS = { dist: { type: 'string' }, list: { type: 'boolean' } } as const;

const parse = (argv: string[], maxPositionals = 1) => parseCliArgs(argv, OPTIONS, ARG_MESSAGES.en, maxPositionals);

/** The message of the UsageError `run` throws (fails when it throws nothing or something else). */
function usageMessage(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error('no UsageError');
}

describe('parseCliArgs', () => {
  it('reads long options in both spellings and positionals', () => {
    expect(parse(['blog', '--dist', 'out', '--list'])).toEqual({ values: { dist: 'out', list: true }, positionals: ['blog'] });
    expect(parse(['--dist=out', 'blog'])).toEqual({ values: { dist: 'out' }, positionals: ['blog'] });
    // After `--` a dash starts a positional, not an option.
    expect(parse(['--', '-blog'])).toEqual({ values: {}, positionals: ['-blog'] });
  });

  it.each(['--help', '-h', 'blog --lsit --help', '-hx'])('asks for help on "%s", whatever else is there', (line) => {
    expect(() => parse(line.split(' '))).toThrow(HelpRequested);
  });

  it('takes --help after -- as a positional', () => {
    expect(parse(['--', '--help'])).toEqual({ values: {}, positionals: ['--help'] });
  });

  it.each([
    [['blog', '--lsit'], 'Unknown option --lsit'],
    [['blog', '-x'], 'Unknown option -x'],
    [['blog', '--dist'], '--dist needs a value'],
    [['blog', '--dist='], '--dist needs a value'],
    [['blog', '--dist', '--list'], '--dist needs a value'],
    [['blog', '--list=yes'], '--list takes no value'],
    [['blog', '--list', '--list'], '--list is given twice'],
    [['blog', '--dist=a', '--dist', 'b'], '--dist is given twice'],
    [['blog', 'extra', 'more'], 'Unexpected arguments: extra more'],
  ])('refuses %p with one short line: %s', (argv, message) => {
    expect(usageMessage(() => parse(argv))).toBe(message);
  });

  it('names the first bad argument when there are several', () => {
    expect(usageMessage(() => parse(['--dist', '--lsit']))).toBe('--dist needs a value');
    expect(usageMessage(() => parse(['--lsit', '--dist']))).toBe('Unknown option --lsit');
  });

  it('refuses any positional where the command takes none', () => {
    expect(usageMessage(() => parse(['blog'], 0))).toBe('Unexpected arguments: blog');
  });

  it('speaks the command’s language', () => {
    const refuse = (argv: string[]) => usageMessage(() => parseCliArgs(argv, OPTIONS, ARG_MESSAGES.uk, 1));
    expect(refuse(['--verbose'])).toBe('Невідомий параметр --verbose');
    expect(refuse(['--dist'])).toBe('Для --dist потрібне значення');
    expect(refuse(['--list=1'])).toBe('--list не приймає значення');
    expect(refuse(['--list', '--list'])).toBe('--list вказано двічі');
    expect(refuse(['a', 'b'])).toBe('Зайві аргументи: b');
  });
});

describe('reportUsage', () => {
  const capture = () => {
    const lines = { out: [] as string[], err: [] as string[] };
    const io: Io = { out: (line) => lines.out.push(line), err: (line) => lines.err.push(line) };
    return { lines, io };
  };

  it('prints the usage to stdout for help, exit code 0', () => {
    const { lines, io } = capture();
    expect(reportUsage(new HelpRequested(), 'Usage: x', io)).toBe(0);
    expect(lines).toEqual({ out: ['Usage: x'], err: [] });
  });

  it('prints the problem, then the usage, to stderr for bad usage, exit code 2', () => {
    const { lines, io } = capture();
    expect(reportUsage(new UsageError('Unknown option --lsit'), 'Usage: x', io)).toBe(2);
    expect(lines).toEqual({ out: [], err: ['Unknown option --lsit\nUsage: x'] });
  });

  it('leaves other errors to the command', () => {
    const { lines, io } = capture();
    expect(reportUsage(new Error('disk full'), 'Usage: x', io)).toBeUndefined();
    expect(lines).toEqual({ out: [], err: [] });
  });
});
