import { MASKED_EMAIL, MASKED_PHONE, maskPersonalData, maskStack } from './mask-personal-data';

describe('maskPersonalData', () => {
  it.each([
    ['olena@example.com', `Лист від ${MASKED_EMAIL} не надіслано`],
    ['olena.kovalenko+news@mail.example.com.ua', `Лист від ${MASKED_EMAIL} не надіслано`],
  ])('masks the e-mail address %s', (email, expected) => {
    expect(maskPersonalData(`Лист від ${email} не надіслано`)).toBe(expected);
  });

  const PHONES = ['+380 67 123 45 67', '+380671234567', '067-123-45-67', '067 123 45 67', '(067) 123-45-67', '0671234567', '+38 (067) 123-45-67', '067.123.45.67'];

  it.each(PHONES)('masks the phone number %s', (phone) => {
    const masked = maskPersonalData(`Невірний номер ${phone}, спробуйте ще`);
    expect(masked).toContain(MASKED_PHONE);
    expect(masked).not.toMatch(/\d{2}/);
    expect(masked).toMatch(/^Невірний номер \(?\[phone\], спробуйте ще$/);
  });

  it('masks every address and number of a message', () => {
    expect(maskPersonalData('a@b.ua, +380 67 123 45 67 та c@d.com; 050-111-22-33')).toBe(
      `${MASKED_EMAIL}, ${MASKED_PHONE} та ${MASKED_EMAIL}; ${MASKED_PHONE}`,
    );
  });

  it('leaves short numbers alone (counts, codes, ids)', () => {
    expect(maskPersonalData('Request failed with status code 503 after 3 tries (post 12345)')).toBe(
      'Request failed with status code 503 after 3 tries (post 12345)',
    );
  });

  it('drops query strings from URLs, keeping the address and its fragment', () => {
    expect(maskPersonalData('GET https://agency.example/blog/7?utm_source=fb&fbclid=AbC123 failed')).toBe(
      'GET https://agency.example/blog/7 failed',
    );
    expect(maskPersonalData('Loading "/remotes/blog/r1/mf-manifest.json?t=1700000000#x" failed')).toBe(
      'Loading "/remotes/blog/r1/mf-manifest.json#x" failed',
    );
  });

  it('leaves nothing of an e-mail carried in a query string', () => {
    const masked = maskPersonalData('Failed https://agency.example/form?email=olena@example.com&step=2');
    expect(masked).not.toMatch(/olena|example\.com|email=|step=/);
    expect(masked.startsWith('Failed https:')).toBe(true);
  });

  it('leaves a message without personal data as it is', () => {
    expect(maskPersonalData("TypeError: Cannot read properties of undefined (reading 'title')")).toBe(
      "TypeError: Cannot read properties of undefined (reading 'title')",
    );
  });
});

describe('maskStack', () => {
  const FRAME = 'at renderPost (http://x/remotes/blog/r1/323171529b.js:1:23456)';

  it('keeps the digits of script names, lines and columns', () => {
    const stack = `TypeError: boom\n    ${FRAME}\n    at http://x/static/js/987654321.4f3e2d1c0b.js:12:345678`;
    expect(maskStack(stack)).toBe(stack);
  });

  it("keeps Firefox's and Safari's frames as they are", () => {
    const stack = 'renderPost@http://x/remotes/blog/r1/323171529b.js:1:23456\n@http://x/static/js/main.123456789.js:2:3';
    expect(maskStack(stack)).toBe(stack);
  });

  it('drops query strings from script addresses, keeping the line and column after them', () => {
    expect(maskStack('    at f (http://x/remotes/blog/r1/323171529b.js?v=1700000000:1:23456)')).toBe(
      '    at f (http://x/remotes/blog/r1/323171529b.js:1:23456)',
    );
    expect(maskStack('f@http://x/main.js?token=abc:12:34\ng@http://x/other.js?x=1')).toBe('f@http://x/main.js:12:34\ng@http://x/other.js');
  });

  it('masks e-mail addresses', () => {
    expect(maskStack(`Error: no user olena@example.com\n    ${FRAME}`)).toBe(`Error: no user ${MASKED_EMAIL}\n    ${FRAME}`);
  });

  it('masks phone numbers outside addresses: V8 starts a stack with the message', () => {
    expect(maskStack(`Error: bad phone +380 67 123 45 67\n    ${FRAME}`)).toBe(`Error: bad phone ${MASKED_PHONE}\n    ${FRAME}`);
    expect(maskStack(`Error: bad phone 067-123-45-67\n    ${FRAME}`)).toBe(`Error: bad phone ${MASKED_PHONE}\n    ${FRAME}`);
  });
});
