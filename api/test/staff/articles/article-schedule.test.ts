import type { ArticleDetail, BlogPost, BlogPostSummary } from '@agency/shared';
import { startArticleSchedule, type ArticleSchedule } from '../../../src/staff/articles/article-schedule';
import { startTestApp, type TestContext } from '../../helpers/app';
import { eventually } from '../../helpers/eventually';
import { joinWithApp, type JoinedMember } from '../../helpers/staff';

// Scheduled publication on a real database (SQLite, then PostgreSQL), with two schedules standing
// for two API processes of one site; their clock is moved past the article's time.
jest.setTimeout(60_000);

let ctx: TestContext;
let editor: JoinedMember;
let cover: string;
const schedules: ArticleSchedule[] = [];

beforeAll(async () => {
  ctx = await startTestApp();
  editor = await joinWithApp(ctx, 'editor@khvylia.example', 'editor');
  cover = (await ctx.request('GET', '/api/blog')).json<BlogPostSummary[]>()[0]!.image_url!;
}, 60_000);

afterEach(async () => {
  await Promise.all(schedules.splice(0).map((schedule) => schedule.stop()));
});

afterAll(async () => {
  await ctx.close();
});

async function send<T>(method: string, path: string, json: unknown): Promise<T> {
  const response = await editor.browser.request(method, path, { json });
  // The path and body name a refusal in the failure message.
  expect([path, response.statusCode < 300 ? 'ok' : response.body]).toEqual([path, 'ok']);
  return response.json<T>();
}

async function scheduled(title: string, minutesAhead: number): Promise<{ article: ArticleDetail; publishAt: Date }> {
  const created = await send<ArticleDetail>('POST', '/api/staff/articles', { title, category: 'SMM', excerpt: 'Опис', author: 'Олена', cover, markdown: 'Текст' });
  const publishAt = new Date(Date.now() + minutesAhead * 60_000);
  const article = await send<ArticleDetail>('POST', `/api/staff/articles/${created.id}/schedule`, { version: created.version, publishAt: publishAt.toISOString() });
  return { article, publishAt };
}

/** A process's schedule whose clock reads `at`; it checks only when asked. */
function processAt(at: Date): ArticleSchedule {
  const schedule = startArticleSchedule(ctx.app.db, ctx.app.log, { intervalMs: 3_600_000, now: () => at.getTime() });
  schedules.push(schedule);
  return schedule;
}

async function audited(id: number): Promise<{ actor: string; action: string }[]> {
  return ctx.db.kysely.selectFrom('staff_audit').select(['actor', 'action']).where('target', '=', `article:${id}`).where('actor', '=', 'schedule').execute();
}

it('publishes an article once its time has come, once for the site however many processes check', async () => {
  const { article, publishAt } = await scheduled('Стаття на ранок понеділка', 2);
  const before = await processAt(new Date(publishAt.getTime() - 1000)).runOnce();
  expect(before).toEqual({ published: [], cancelled: [] });
  await Promise.all(schedules.splice(0).map((schedule) => schedule.stop()));

  const later = new Date(publishAt.getTime() + 5_000);
  const [first, second] = [processAt(later), processAt(later)];
  const reports = await Promise.all([first.runOnce(), second.runOnce()]);
  // One process holds the lease and publishes; the other finds it held and does nothing.
  expect(reports.filter((report) => report !== undefined)).toEqual([{ published: [article.id], cancelled: [] }]);
  expect(await audited(article.id)).toEqual([{ actor: 'schedule', action: 'article-published' }]);

  const post = await eventually('the scheduled post', () => ctx.request('GET', `/api/blog/${article.id}`), (response) => response.statusCode === 200);
  expect(post.json<BlogPost>().created_at).toBe(later.toISOString());
  const state = await editor.browser.request('GET', `/api/staff/articles/${article.id}`);
  expect(state.json<ArticleDetail>()).toMatchObject({ state: 'published', publishAt: null, unpublishedChanges: false });
});

it('leaves an article whose working copy became incomplete unpublished, its schedule cancelled', async () => {
  const { article, publishAt } = await scheduled('Стаття без тексту в понеділок', 3);
  const emptied = await send<ArticleDetail>('PUT', `/api/staff/articles/${article.id}`, {
    version: article.version, slug: article.slug, title: article.title, category: article.category, excerpt: article.excerpt, author: article.author, cover: article.cover, markdown: '',
  });
  expect(emptied.state).toBe('scheduled');
  const report = await processAt(new Date(publishAt.getTime() + 1000)).runOnce();
  expect(report).toEqual({ published: [], cancelled: [article.id] });
  expect(await audited(article.id)).toEqual([{ actor: 'schedule', action: 'article-schedule-cancelled' }]);
  expect((await ctx.request('GET', `/api/blog/${article.id}`)).statusCode).toBe(404);
  expect((await editor.browser.request('GET', `/api/staff/articles/${article.id}`)).json<ArticleDetail>()).toMatchObject({ state: 'draft', publishAt: null });
});
