import { inertOutput, inertText } from '../../../src/platform/cli/terminal-text';

// What the commands print of text that came from outside: nothing a terminal acts on gets through.

describe('inertText', () => {
  it.each([
    ['an escape sequence', 'a\u001b[31mred', 'a\\u001b[31mred'],
    ['a line break and a carriage return', 'one\r\ntwo\rthree', 'one\\u000d\\u000atwo\\u000dthree'],
    ['a tab and a bell', 'a\tb\u0007', 'a\\u0009b\\u0007'],
    ['DEL and a C1 control (CSI)', 'x\u007fy\u009bz', 'x\\u007fy\\u009bz'],
    ['a right-to-left override and an isolate', 'invoice\u202Efdp.exe \u2067x\u2069', 'invoice\\u202efdp.exe \\u2067x\\u2069'],
    ['the line and paragraph separators', 'a\u2028b\u2029c', 'a\\u2028b\\u2029c'],
  ])('escapes %s', (_what, text, shown) => {
    expect(inertText(text)).toBe(shown);
  });

  it('leaves ordinary text, Ukrainian included, as it is', () => {
    const text = 'Помилка: «не вдалося» — 42 % (ok)';
    expect(inertText(text)).toBe(text);
  });
});

describe('inertOutput', () => {
  it('keeps the output’s own line breaks (\\n, \\r\\n) and tabs, and escapes the rest', () => {
    expect(inertOutput('id\tname\r\n1\tОлена\u001b[2J\rX\n')).toBe('id\tname\r\n1\tОлена\\u001b[2J\\u000dX\n');
  });

  it('keeps JSON valid and meaning the same', () => {
    const value = { name: 'A\u202Eb\u0085c' };
    const printed = inertOutput(JSON.stringify(value));
    expect(printed).not.toMatch(/[\u0085\u202E]/);
    expect(JSON.parse(printed)).toEqual(value);
  });
});
