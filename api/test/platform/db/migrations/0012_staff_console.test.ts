import { migrateToLatest } from '../../../../src/platform/db/migrate';
import { listLeads } from '../../../../src/staff/inbox/inbox-repository';
import { setUpMigrationTest } from '../../../helpers/migration';

const suite = setUpMigrationTest('0012');

describe('migration 0012 (staff console)', () => {
  it('puts every lead stored before it in the inbox, «Нова», in the order they arrived, and searchable', async () => {
    const db = await suite.migrateToBefore();
    const at = (iso: string) => db.dialect.timestamp(new Date(iso));
    const common = { user_agent: null, referrer: null };
    await db.kysely
      .insertInto('contact_messages')
      .values([
        { ...common, name: 'Стара Заявка', email: 'old@example.com', phone: '+380 67 111 22 33', company: 'Кавʼярня', service_type: 'smm', message: 'Давно писали', created_at: at('2025-01-02T10:00:00Z'), utm_source: 'google' },
        { ...common, name: 'Новіша Заявка', email: 'newer@example.com', phone: '0501112233', company: '', service_type: '', message: 'Пізніше', created_at: at('2025-03-01T10:00:00Z'), referrer_host: 'facebook.com' },
      ])
      .execute();
    await db.kysely
      .insertInto('job_applications')
      .values({ ...common, name: 'Кандидатка', email: 'cv@example.com', phone: '067 000 00 00', city: 'Львів', position: 'SMM-менеджер', resume_text: 'Досвід три роки', created_at: at('2025-02-01T10:00:00Z') })
      .execute();

    await migrateToLatest(db);

    const page = await listLeads(db, { filter: {}, limit: 10 });
    expect(page.leads.map(({ name, kind, status, source, receivedAt }) => ({ name, kind, status, source, receivedAt }))).toEqual([
      { name: 'Новіша Заявка', kind: 'contact', status: 'new', source: 'facebook.com', receivedAt: '2025-03-01T10:00:00.000Z' },
      { name: 'Кандидатка', kind: 'applications', status: 'new', source: '', receivedAt: '2025-02-01T10:00:00.000Z' },
      { name: 'Стара Заявка', kind: 'contact', status: 'new', source: 'google', receivedAt: '2025-01-02T10:00:00.000Z' },
    ]);
    expect((await listLeads(db, { filter: { q: 'кавʼярня' }, limit: 10 })).leads.map((lead) => lead.name)).toEqual(['Стара Заявка']);
    expect((await listLeads(db, { filter: { q: '0671112233' }, limit: 10 })).leads.map((lead) => lead.name)).toEqual(['Стара Заявка']);
    expect((await listLeads(db, { filter: { q: 'досвід' }, limit: 10 })).leads.map((lead) => lead.name)).toEqual(['Кандидатка']);
  });
});
