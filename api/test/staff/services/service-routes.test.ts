import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { ApiErrorBody, Service, ServiceConflict, StaffService } from '@agency/shared';
import { PUBLIC_DIR } from '../../../src/platform/config';
import { startTestApp, type TestContext } from '../../helpers/app';
import { eventually } from '../../helpers/eventually';
import { joinWithApp, type JoinedMember } from '../../helpers/staff';

// The console's services over real HTTP, on a real database (SQLite, then PostgreSQL); what
// visitors get is read from the public GET /api/services.
jest.setTimeout(60_000);

let ctx: TestContext;
let editor: JoinedMember;
let colleague: JoinedMember;
let viewer: JoinedMember;

beforeAll(async () => {
  ctx = await startTestApp();
  editor = await joinWithApp(ctx, 'editor@khvylia.example', 'editor');
  colleague = await joinWithApp(ctx, 'colleague@khvylia.example', 'editor');
  viewer = await joinWithApp(ctx, 'viewer@khvylia.example', 'viewer');
}, 60_000);

afterAll(async () => {
  await ctx.close();
});

async function call<T>(member: JoinedMember, method: string, url: string, json?: unknown, status = 200): Promise<T> {
  const response = await member.browser.request(method, url, json === undefined ? {} : { json });
  expect([method, url, response.statusCode, response.statusCode === status ? '' : response.body]).toEqual([method, url, status, '']);
  return response.json<T>();
}

const list = () => call<StaffService[]>(editor, 'GET', '/api/staff/services');
const publicServices = async () => (await ctx.request('GET', '/api/services')).json<Service[]>();

function fieldsOf(service: StaffService) {
  const { title, description, icon, features, priceFrom } = service;
  return { title, description, icon, features, priceFrom };
}

const NEW_SERVICE = { title: 'Email-маркетинг', description: 'Розсилки, які читають.', icon: '/media/services/content.svg', features: ['Сегментація бази', 'Автоворонки'], priceFrom: 7000 };

it('lists every service in the home page’s order; a viewer is refused', async () => {
  const services = await list();
  expect(services.map((service) => service.title)).toEqual((await publicServices()).map((service) => service.title));
  expect(services.every((service) => service.published && service.version === 1)).toBe(true);
  expect((await viewer.browser.request('GET', '/api/staff/services')).statusCode).toBe(403);
  expect((await viewer.browser.request('PUT', '/api/staff/services/order', { json: { ids: services.map((service) => service.id).reverse() } })).statusCode).toBe(403);
  expect((await list()).map((service) => service.id)).toEqual(services.map((service) => service.id));
});

it('adds a service off the home page, last, and shows it once published; the public contract is unchanged', async () => {
  const before = await publicServices();
  const created = await call<StaffService>(editor, 'POST', '/api/staff/services', NEW_SERVICE, 201);
  expect(created).toMatchObject({ slug: 'email-marketynh', published: false, version: 1, updatedBy: editor.email });
  expect((await list()).at(-1)!.id).toBe(created.id);
  expect(await publicServices()).toEqual(before);

  const published = await call<StaffService>(editor, 'POST', `/api/staff/services/${created.id}/publish`, { version: created.version });
  const shown = await eventually('the new service on the home page', publicServices, (services) => services.length === before.length + 1);
  expect(shown.at(-1)).toEqual({ id: created.id, title: NEW_SERVICE.title, description: NEW_SERVICE.description, icon_url: NEW_SERVICE.icon, features: NEW_SERVICE.features, price_from: 7000 });
  expect(Object.keys(shown[0]!).sort()).toEqual(['description', 'features', 'icon_url', 'id', 'price_from', 'title']);

  // No price: no price line on the card.
  const unpriced = await call<StaffService>(editor, 'PUT', `/api/staff/services/${created.id}`, { version: published.version, ...fieldsOf(published), priceFrom: null });
  await eventually('the price gone', publicServices, (services) => services.find((service) => service.id === created.id)?.price_from === null);
  await call<StaffService>(editor, 'POST', `/api/staff/services/${created.id}/unpublish`, { version: unpriced.version });
  await eventually('the service gone', publicServices, (services) => !services.some((service) => service.id === created.id));
});

it('gives the second of two editors saving one version a conflict', async () => {
  const [service] = await list();
  await call<StaffService>(editor, 'PUT', `/api/staff/services/${service!.id}`, { version: service!.version, ...fieldsOf(service!), title: 'SMM від редактора' });
  const theirs = await colleague.browser.request('PUT', `/api/staff/services/${service!.id}`, { json: { version: service!.version, ...fieldsOf(service!), title: 'SMM від колеги' } });
  expect(theirs.statusCode).toBe(409);
  expect(theirs.json<ServiceConflict>()).toMatchObject({ error: { code: 'SERVICE_CHANGED' }, current: { title: 'SMM від редактора', version: service!.version + 1 } });
});

it('refuses an empty title, a negative price and too many features, changing nothing', async () => {
  const [service] = await list();
  for (const change of [{ title: '' }, { priceFrom: -5 }, { features: Array.from({ length: 13 }, (_, index) => `Пункт ${index}`) }, { icon: 'https://evil.example/x.svg' }]) {
    const response = await editor.browser.request('PUT', `/api/staff/services/${service!.id}`, { json: { version: service!.version, ...fieldsOf(service!), ...change } });
    expect([JSON.stringify(change).slice(0, 30), response.statusCode]).toEqual([JSON.stringify(change).slice(0, 30), 400]);
  }
  expect((await list())[0]).toEqual(service);
});

it('reorders the services as the home page shows them, and refuses an order of a list that changed', async () => {
  const services = await list();
  const reversed = services.map((service) => service.id).reverse();
  const reordered = await call<StaffService[]>(editor, 'PUT', '/api/staff/services/order', { ids: reversed });
  expect(reordered.map((service) => service.id)).toEqual(reversed);
  const published = reordered.filter((service) => service.published).map((service) => service.id);
  await eventually('the new order on the home page', publicServices, (shown) => JSON.stringify(shown.map((service) => service.id)) === JSON.stringify(published));

  const missingOne = await editor.browser.request('PUT', '/api/staff/services/order', { json: { ids: reversed.slice(1) } });
  expect([missingOne.statusCode, missingOne.json<ApiErrorBody>().error.code]).toEqual([409, 'SERVICE_LIST_CHANGED']);
  expect((await list()).map((service) => service.id)).toEqual(reversed);
});

describe('icons', () => {
  let service: StaffService;
  beforeAll(async () => {
    service = (await list())[0]!;
  });

  const upload = (body: Buffer, type: string) => editor.browser.request('POST', `/api/staff/services/${service.id}/icon`, { body, headers: { 'content-type': type } });

  it('serves an SVG rebuilt without scripts, handlers, styles or references outside it', async () => {
    const hostile = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 24 24" onload="alert(1)">
      <script>alert(2)</script><style>path{fill:url(https://evil.example/x)}</style>
      <defs><linearGradient id="g"><stop offset="0" stop-color="#0e7c86"/></linearGradient></defs>
      <path d="M2 2h20v20H2z" fill="url(#g)" onclick="alert(3)" style="fill:red"/>
      <image href="https://evil.example/track.png" width="1" height="1"/><use xlink:href="https://evil.example/s.svg#a"/>
      <a href="javascript:alert(4)"><circle cx="12" cy="12" r="4" fill="url(https://evil.example/#x)"/></a>
      <foreignObject><div xmlns="http://www.w3.org/1999/xhtml">html</div></foreignObject></svg>`;
    const response = await upload(Buffer.from(hostile), 'image/svg+xml');
    expect(response.statusCode).toBe(201);
    const { url } = response.json<{ url: string }>();
    const served = await ctx.request('GET', url);
    expect([served.statusCode, served.headers['content-type']]).toEqual([200, 'image/svg+xml']);
    expect(served.body).toContain('<linearGradient id="g">');
    expect(served.body).toContain('fill="url(#g)"');
    expect(served.body).not.toMatch(/script|onload|onclick|style|evil|javascript|foreignObject|<image|<a\b|html/i);
    await expect(sharp(served.raw).metadata()).resolves.toMatchObject({ format: 'svg' });
  });

  it('takes the site’s own icons as they are drawn', async () => {
    const response = await upload(fs.readFileSync(path.join(PUBLIC_DIR, 'media/services/seo.svg')), 'image/svg+xml');
    expect(response.statusCode).toBe(201);
    const served = await ctx.request('GET', response.json<{ url: string }>().url);
    await expect(sharp(served.raw).metadata()).resolves.toMatchObject({ format: 'svg' });
  });

  it('makes a PNG or WebP the 112×112 PNG a 56-pixel icon needs, transparency kept; refuses anything else', async () => {
    const webp = await sharp({ create: { width: 300, height: 150, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).webp().toBuffer();
    const response = await upload(webp, 'application/octet-stream');
    expect(response.statusCode).toBe(201);
    const served = await ctx.request('GET', response.json<{ url: string }>().url);
    await expect(sharp(served.raw).metadata()).resolves.toMatchObject({ format: 'png', width: 112, height: 112, hasAlpha: true });

    const jpeg = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#fff' } }).jpeg().toBuffer();
    for (const [body, type] of [[jpeg, 'image/png'], [Buffer.from('<html><script>alert(1)</script></html>'), 'image/svg+xml']] as const) {
      const refused = await upload(body, type);
      expect([refused.statusCode, refused.json<ApiErrorBody>().error.message]).toEqual([400, 'Іконка має бути зображенням SVG, PNG чи WebP']);
    }
  });
});
