import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { openEndedBody } from '../../../src/platform/http/open-ended-body';

// A page whose end differs for every visitor: decoders must read the spliced streams whole.

const page = `<!doctype html><html lang="uk"><head><title>Хвиля</title></head><body>${'<section><h2>Послуги</h2><p>Ведення соцмереж, контент, лідогенерація.</p></section>'.repeat(400)}`;

describe('openEndedBody', () => {
  it.each([
    ['a few form tokens', '<input type="hidden" form="contact-form" name="form_token" value="contact.abc.def"></body></html>'],
    ['nothing', ''],
    ['more than one block holds', 'ї'.repeat(40_000)],
  ])('closes each encoding with %s into exactly the start and that end', async (_what, end) => {
    const body = await openEndedBody(page);
    expect(brotliDecompressSync(body.closedWith(end, 'br') as Buffer).toString()).toBe(page + end);
    expect(gunzipSync(body.closedWith(end, 'gzip') as Buffer).toString()).toBe(page + end);
    expect(body.closedWith(end, null)).toBe(page + end);
  });

  it('sends each end after the start compressed once: two ends cost their own bytes only', async () => {
    const body = await openEndedBody(page);
    const one = body.closedWith('<i>1</i>', 'br') as Buffer;
    const other = body.closedWith('<i>22</i>', 'br') as Buffer;
    expect(other.length - one.length).toBe(1);
    expect(one.length).toBeLessThan(Buffer.byteLength(page) / 10);
  });

  it('keeps sending whole bodies after its brotli start is compressed again, better', async () => {
    const body = await openEndedBody(page);
    const before = (body.closedWith('</html>', 'br') as Buffer).length;
    await body.recompress();
    const after = body.closedWith('</html>', 'br') as Buffer;
    expect(after.length).toBeLessThanOrEqual(before);
    expect(brotliDecompressSync(after).toString()).toBe(`${page}</html>`);
  });
});
