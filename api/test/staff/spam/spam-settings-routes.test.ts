import type { SpamSettingsConflict, SpamSettingsView } from '@agency/shared';
import { startTestApp, VALID_CONTACT, type TestContext } from '../../helpers/app';
import { asPerson } from '../../helpers/person-submission';
import { joinWithApp, type JoinedMember } from '../../helpers/staff';

// The spam defence's settings, tuned by admins in the console, over real HTTP.

let ctx: TestContext;
let admin: JoinedMember;
let editor: JoinedMember;

beforeAll(async () => {
  ctx = await startTestApp();
  admin = await joinWithApp(ctx, 'admin@khvylia.example', 'admin');
  editor = await joinWithApp(ctx, 'editor@khvylia.example', 'editor');
});

afterAll(() => ctx.close());

const settings = async () => (await admin.browser.request('GET', '/api/staff/spam-settings')).json<SpamSettingsView>();

describe('/api/staff/spam-settings', () => {
  it('shows the defaults until an admin changes them', async () => {
    const current = await settings();
    expect(current).toMatchObject({ threshold: 10, version: 0, updatedAt: null, updatedBy: null });
    expect(current.phrases).toContain('guest post');
  });

  it('holds a person’s submission with a phrase an admin added, within seconds, and audits the change', async () => {
    const current = await settings();
    const saved = await admin.browser.request('PUT', '/api/staff/spam-settings', { json: { threshold: 6, phrases: [...current.phrases, '  Надзвичайна   пропозиція ', 'guest post'], version: current.version } });
    expect(saved.statusCode).toBe(200);
    const view = saved.json<SpamSettingsView>();
    expect(view).toMatchObject({ threshold: 6, version: current.version + 1, updatedBy: 'admin@khvylia.example' });
    // Trimmed, spaces folded, each once.
    expect(view.phrases.filter((phrase) => phrase === 'guest post')).toHaveLength(1);
    expect(view.phrases).toContain('Надзвичайна пропозиція');

    const answer = await ctx.request('POST', '/api/contact', await asPerson(ctx, 'contact', { ...VALID_CONTACT, message: 'У нас для вас надзвичайна пропозиція щодо реклами.' }));
    expect(answer.statusCode).toBe(201);
    const lead = await ctx.db.kysely.selectFrom('leads').select(['status', 'spam_reasons']).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(lead).toEqual({ status: 'spam', spam_reasons: JSON.stringify(['spam-phrase']) });

    const audit = await ctx.db.kysely.selectFrom('staff_audit').select(['action', 'detail']).where('action', '=', 'spam-settings-changed').executeTakeFirstOrThrow();
    expect(JSON.parse(audit.detail)).toEqual({ threshold: { from: 10, to: 6 }, phrasesAdded: ['Надзвичайна пропозиція'], phrasesRemoved: [] });
  });

  it('refuses a change made from an older version, with the settings as they are now, and saves nothing', async () => {
    const current = await settings();
    await admin.browser.request('PUT', '/api/staff/spam-settings', { json: { threshold: 12, phrases: current.phrases, version: current.version } });
    const stale = await admin.browser.request('PUT', '/api/staff/spam-settings', { json: { threshold: 3, phrases: [], version: current.version } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json<SpamSettingsConflict>()).toMatchObject({ error: { code: 'SPAM_SETTINGS_CHANGED' }, current: { threshold: 12, version: current.version + 1 } });
    expect(await settings()).toMatchObject({ threshold: 12, version: current.version + 1 });
  });

  it('refuses a threshold out of bounds (400) and anyone but an admin (403)', async () => {
    const current = await settings();
    expect((await admin.browser.request('PUT', '/api/staff/spam-settings', { json: { threshold: 0, phrases: [], version: current.version } })).statusCode).toBe(400);
    expect((await editor.browser.request('GET', '/api/staff/spam-settings')).statusCode).toBe(403);
    expect((await editor.browser.request('PUT', '/api/staff/spam-settings', { json: { threshold: 10, phrases: [], version: current.version } })).statusCode).toBe(403);
    expect(await settings()).toMatchObject({ version: current.version });
  });
});
