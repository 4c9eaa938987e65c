import { FORM_POST_PATHS, FORM_TOKEN_FIELD, HONEYPOT_FIELD, type FormName } from '@agency/shared';
import { listContactMessages, listJobApplications } from '../../../../src/site/leads/submissions/submissions-repository';
import { startTestApp, VALID_APPLICATION, VALID_CONTACT, type TestContext } from '../../../helpers/app';
import { countRows } from '../../../helpers/database';
import { spamFields } from '../../../helpers/person-submission';

// The forms as the browser posts them with scripts off (or before they run): urlencoded, answered
// with a redirect to the page that says whether the form was sent.

let ctx: TestContext;

beforeAll(async () => {
  // Each test posts from its own address (x-forwarded-for, trusted here), under a limit of 5 an address.
  ctx = await startTestApp({ rateLimitMax: 5, trustProxy: true });
});

afterAll(async () => {
  await ctx.close();
});

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const encode = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

async function counts() {
  return { contact: await countRows(ctx.db, 'contact_messages'), application: await countRows(ctx.db, 'job_applications') };
}

/**
 * The form token the server put into the form's page (issued as long before as a person takes to
 * fill the form), as the browser posts it back: with scripts off there is no proof of work to send.
 */
async function pageToken(form: FormName): Promise<Record<string, string>> {
  return { [FORM_TOKEN_FIELD]: (await spamFields(ctx.db, form)).form_token };
}

/** The inbox row of a stored submission: its status and why it was held. */
async function leadOf(kind: 'contact' | 'applications', email: string) {
  const table = kind === 'contact' ? 'contact_messages' : 'job_applications';
  const submission = await ctx.db.kysely.selectFrom(table).select('id').where('email', '=', email).executeTakeFirstOrThrow();
  const lead = await ctx.db.kysely.selectFrom('leads').select(['status', 'spam_reasons']).where('kind', '=', kind).where('submission_id', '=', submission.id).executeTakeFirstOrThrow();
  return { status: lead.status, reasons: lead.spam_reasons === null ? null : (JSON.parse(lead.spam_reasons) as string[]) };
}

/** Posts as a browser does from another address each time, so the rate limit counts only where a test means it to. */
let visitor = 0;
function post(path: string, body: string, headers: Record<string, string> = FORM) {
  visitor += 1;
  return ctx.request('POST', path, { headers: { ...headers, 'x-forwarded-for': `203.0.113.${visitor}` }, body });
}

describe('a form posted without a script', () => {
  it('stores a contact message and sends the browser to the page that says it was sent', async () => {
    const message = { ...VALID_CONTACT, email: 'no.script@example.com' };
    const response = await post(FORM_POST_PATHS.contact, encode({ ...message, ...(await pageToken('contact')) }));
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/forms/contact/sent');
    expect(response.headers['cache-control']).toBe('no-store');
    const { [HONEYPOT_FIELD]: _trap, ...fields } = message;
    expect((await listContactMessages(ctx.db)).filter((row) => row.email === message.email)).toEqual([expect.objectContaining(fields)]);
  });

  it('stores a job application the same way, its line breaks and Ukrainian as typed', async () => {
    const application = { ...VALID_APPLICATION, email: 'no.script.cv@example.com', resume_text: 'Досвід:\nSMM — 3 роки;\nкопірайтинг' };
    const response = await post(FORM_POST_PATHS['job-application'], encode({ ...application, ...(await pageToken('job-application')) }));
    expect([response.statusCode, response.headers.location]).toEqual([303, '/forms/job-application/sent']);
    const [row] = (await listJobApplications(ctx.db)).filter((stored) => stored.email === application.email);
    expect(row).toMatchObject({ position: application.position, resume_text: application.resume_text });
  });

  it('stores nothing and says not sent for a field the API refuses', async () => {
    const before = await counts();
    const response = await post(FORM_POST_PATHS.contact, encode({ ...VALID_CONTACT, email: 'not an address' }));
    expect([response.statusCode, response.headers.location]).toEqual([303, '/forms/contact/not-sent']);
    expect(await counts()).toEqual(before);
  });

  it('answers a filled spam trap as sent and stores nothing', async () => {
    const before = await counts();
    const response = await post(FORM_POST_PATHS['job-application'], encode({ ...VALID_APPLICATION, [HONEYPOT_FIELD]: 'https://spam.example' }));
    expect([response.statusCode, response.headers.location]).toEqual([303, '/forms/job-application/sent']);
    expect(await counts()).toEqual(before);
  });

  it('takes only what an HTML form posts: JSON there says not sent and stores nothing', async () => {
    const before = await counts();
    const response = await post(FORM_POST_PATHS.contact, JSON.stringify(VALID_CONTACT), { 'content-type': 'application/json' });
    expect([response.statusCode, response.headers.location]).toEqual([303, '/forms/contact/not-sent']);
    expect(await counts()).toEqual(before);
  });

  it('refuses a form another site posts here (as the browser says it is), storing nothing; this site’s own is taken', async () => {
    const before = await counts();
    const crossSite = await post(FORM_POST_PATHS.contact, encode(VALID_CONTACT), { ...FORM, 'sec-fetch-site': 'cross-site' });
    expect([crossSite.statusCode, crossSite.headers.location]).toEqual([303, '/forms/contact/not-sent']);
    expect(await counts()).toEqual(before);
    // Another person's message than the first test's: the same long text from another e-mail is a campaign's.
    const ownMessage = { ...VALID_CONTACT, message: 'Доброго дня! Пишу з форми на вашому сайті.' };
    const own = await post(FORM_POST_PATHS.contact, encode({ ...ownMessage, ...(await pageToken('contact')) }), { ...FORM, 'sec-fetch-site': 'same-origin' });
    expect([own.statusCode, own.headers.location]).toEqual([303, '/forms/contact/sent']);
    expect((await counts()).contact).toBe(before.contact + 1);
  });

  it('stores a form posted with the token of its page and no proof of work (scripts off) as a new lead, not held', async () => {
    const message = { ...VALID_CONTACT, email: 'token.no.proof@example.com', phone: '+380 93 700 00 01', message: 'Скрипти вимкнено, але форма дійшла.' };
    const response = await post(FORM_POST_PATHS.contact, encode({ ...message, ...(await pageToken('contact')) }));
    expect([response.statusCode, response.headers.location]).toEqual([303, '/forms/contact/sent']);
    expect(await leadOf('contact', message.email)).toEqual({ status: 'new', reasons: null });
  });

  it('stores a form posted without a token (no page of this site served it) held as spam: no-token', async () => {
    const application = { ...VALID_APPLICATION, email: 'no.token@example.com' };
    const response = await post(FORM_POST_PATHS['job-application'], encode(application));
    // Answered as a person's: a wrong guess never costs a person the lead, nor tells a bot.
    expect([response.statusCode, response.headers.location]).toEqual([303, '/forms/job-application/sent']);
    const lead = await leadOf('applications', application.email);
    expect(lead.status).toBe('spam');
    expect(lead.reasons).toContain('no-token');
  });

  it('leaves the JSON routes refusing form bodies', async () => {
    const response = await post('/api/contact', encode(VALID_CONTACT));
    expect(response.statusCode).toBe(415);
  });

  it('keeps to the submissions’ rate limit: past it the browser is told not sent, and nothing is stored', async () => {
    const headers = { ...FORM, 'x-forwarded-for': '198.51.100.7' };
    const answers: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const response = await ctx.request('POST', FORM_POST_PATHS.contact, { headers, body: encode({ ...VALID_CONTACT, email: `limit.${i}@example.com` }) });
      answers.push(`${response.statusCode} ${response.headers.location}`);
    }
    expect(answers).toEqual([...Array(5).fill('303 /forms/contact/sent'), '303 /forms/contact/not-sent']);
    expect((await listContactMessages(ctx.db)).filter((row) => row.email.startsWith('limit.')).length).toBe(5);
  });
});
