import { STAFF_PREVIEW_PATH } from '@agency/shared';
import { startTestApp, type TestContext } from '../../helpers/app';

// Who may frame the site's pages: nobody, except the site itself for the console's previews.
let ctx: TestContext;

beforeAll(async () => {
  ctx = await startTestApp();
});

afterAll(async () => {
  await ctx.close();
});

const frameAncestors = async (url: string) => /frame-ancestors ([^;]+)/.exec(String((await ctx.request('GET', url)).headers['content-security-policy']))?.[1];

it.each(['/', '/blog', '/staff', '/staff/articles/1', '/api/services', `${STAFF_PREVIEW_PATH}x/article`])('lets no page frame %s', async (url) => {
  expect(await frameAncestors(url)).toBe("'none'");
});

it.each([`${STAFF_PREVIEW_PATH}/article`, `${STAFF_PREVIEW_PATH}/services?x=1`])('lets the site’s own pages frame the preview %s, and only them', async (url) => {
  expect(await frameAncestors(url)).toBe("'self'");
  expect((await ctx.request('GET', url)).headers['x-frame-options']).toBe('SAMEORIGIN');
});
