import type { FollowUpSettingsView } from '@agency/shared';
import { startTestApp, VALID_CONTACT, type TestContext } from '../../helpers/app';
import { eventually } from '../../helpers/eventually';
import { startSmtpSink, type SmtpSink } from '../../helpers/lead-receivers';
import { asPerson } from '../../helpers/person-submission';
import { joinWithApp, type JoinedMember } from '../../helpers/staff';

// What admins set for the work after a lead arrives, over real HTTP: the visitor's reply and the target.

let smtp: SmtpSink;
let ctx: TestContext;
let admin: JoinedMember;
let editor: JoinedMember;

beforeAll(async () => {
  smtp = await startSmtpSink();
  ctx = await startTestApp({ leads: { email: { smtpUrl: smtp.url, to: 'leads@khvylia.example', from: 'site@khvylia.example' } } });
  admin = await joinWithApp(ctx, 'admin@khvylia.example', 'admin');
  editor = await joinWithApp(ctx, 'editor@khvylia.example', 'editor');
});

afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

const settings = async () => (await admin.browser.request('GET', '/api/staff/follow-up-settings')).json<FollowUpSettingsView>();
const save = (json: object) => admin.browser.request('PUT', '/api/staff/follow-up-settings', { json });

describe('/api/staff/follow-up-settings', () => {
  it('shows the defaults until an admin changes them: the replies name the reference number, the target is 2 working hours', async () => {
    const current = await settings();
    expect(current).toMatchObject({ targetMinutes: 120, version: 0, updatedAt: null, updatedBy: null });
    expect(current.replies.contact.subject).toContain('{number}');
    expect(current.replies.applications.text).toContain('{position}');
  });

  it('sends the reply an admin wrote to the next visitor, and audits the change', async () => {
    const current = await settings();
    const replies = { ...current.replies, contact: { subject: 'Дякуємо, {name}! Звернення №{number}', text: 'Відповімо {answer_by}.\n\n{message}' } };
    const saved = await save({ replies, targetMinutes: 60, version: current.version });
    expect(saved.statusCode).toBe(200);
    expect(saved.json<FollowUpSettingsView>()).toMatchObject({ targetMinutes: 60, version: 1, updatedBy: admin.email });

    const answer = await ctx.request('POST', '/api/contact', await asPerson(ctx, 'contact', { ...VALID_CONTACT, email: 'settings.reader@example.com' }));
    const id = answer.json<{ id: number }>().id;
    const [reply] = await eventually('the reply', () => smtp.sentTo('settings.reader@example.com'), (mails) => mails.length === 1, 5_000);
    expect(reply!.subject).toBe(`Дякуємо, ${VALID_CONTACT.name}! Звернення №${id}`);
    expect(reply!.text).toContain(VALID_CONTACT.message);

    const audit = await ctx.db.kysely.selectFrom('staff_audit').select('detail').where('action', '=', 'follow-up-settings-changed').executeTakeFirstOrThrow();
    expect(JSON.parse(audit.detail)).toEqual({ targetMinutes: { from: 120, to: 60 }, repliesChanged: ['contact'] });
  });

  it('refuses a reply with a placeholder it cannot fill, naming the field, and saves nothing', async () => {
    const current = await settings();
    const answer = await save({ replies: { ...current.replies, applications: { subject: 'Відгук №{nomer}', text: 'Дякуємо' } }, targetMinutes: 60, version: current.version });
    expect(answer.statusCode).toBe(400);
    expect(answer.json<{ error: { fields: Record<string, string> } }>().error.fields['replies.applications']).toContain('{nomer}');
    expect((await settings()).version).toBe(current.version);
  });

  it('refuses a change from an older version (409 with the settings now), a target out of bounds (400), and anyone but an admin (403)', async () => {
    const current = await settings();
    expect((await save({ replies: current.replies, targetMinutes: 90, version: current.version })).statusCode).toBe(200);
    const stale = await save({ replies: current.replies, targetMinutes: 30, version: current.version });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ error: { code: 'FOLLOW_UP_SETTINGS_CHANGED' }, current: { targetMinutes: 90 } });
    expect((await save({ replies: current.replies, targetMinutes: 0, version: current.version + 1 })).statusCode).toBe(400);
    expect((await editor.browser.request('GET', '/api/staff/follow-up-settings')).statusCode).toBe(403);
  });
});
