import type { TelemetryBatch } from '@agency/shared';
import { createReportAdmission } from '../../../src/delivery/health/report-admission';
import { CLIENT_LIMITS } from '../../../src/delivery/health/telemetry-limits';
import { browserError } from '../../helpers/telemetry';

// What of a browser's report counts, for which client: only the releases the server serves it,
// within what one client may add per window.

const SERVED = { shell: 's1', home: 'h1', blog: 'b1', forms: 'f1' };
const CANARY = { ...SERVED, blog: 'b2-candidate' };

let now = Date.parse('2026-11-25T10:00:00Z');
const admission = () => createReportAdmission(() => now);

describe('report', () => {
  it('keeps what names the releases the client is served, and drops made-up and other clients’ releases', () => {
    const batch: TelemetryBatch = {
      page_views: [{ page: '/', releases: { shell: 's1', blog: 'b2-candidate' } }],
      vitals: [{ name: 'LCP', value: 900, page: '/', releases: { shell: 'made-up' } }],
      errors: [browserError({ app: 'blog', release: 'b2-candidate' }), browserError({ app: 'blog', release: 'b1' })],
    };
    const outsideTheShare = admission().report(batch, { id: 'a', assigned: SERVED });
    expect(outsideTheShare.batch).toEqual({ page_views: [{ page: '/', releases: { shell: 's1' } }], vitals: [], errors: [browserError({ app: 'blog', release: 'b1' })] });
    expect(outsideTheShare.dropped).toEqual({ unassigned: 3, client_limit: 0 });

    const insideTheShare = admission().report(batch, { id: 'b', assigned: CANARY });
    expect(insideTheShare.batch.page_views).toEqual([{ page: '/', releases: { shell: 's1', blog: 'b2-candidate' } }]);
    expect(insideTheShare.batch.errors).toEqual([browserError({ app: 'blog', release: 'b2-candidate' })]);
  });

  it('counts pages it does not know as *', () => {
    const { batch } = admission().report(
      { page_views: [{ page: '/wp-admin', releases: SERVED }], errors: [browserError({ app: 'blog', release: 'b1', page: '/blog/:postId' })] },
      { id: 'a', assigned: SERVED },
    );
    expect(batch.page_views?.[0]?.page).toBe('*');
    expect(batch.errors?.[0]?.page).toBe('/blog/:postId');
  });

  it(`counts an error ${CLIENT_LIMITS.errorCount} times at most`, () => {
    const { batch } = admission().report({ errors: [browserError({ app: 'blog', release: 'b1', count: 1000 })] }, { id: 'a', assigned: SERVED });
    expect(batch.errors?.[0]?.count).toBe(CLIENT_LIMITS.errorCount);
  });

  it(`counts ${CLIENT_LIMITS.eventsPerMinute} events of an app release a minute per client, afresh the next minute`, () => {
    const gate = admission();
    const views = (count: number): TelemetryBatch => ({ page_views: Array.from({ length: count }, () => ({ page: '/', releases: { blog: 'b1' } })) });
    now = Date.parse('2026-11-25T10:00:10Z');
    expect(gate.report(views(CLIENT_LIMITS.eventsPerMinute + 5), { id: 'a', assigned: SERVED }).dropped.client_limit).toBe(5);
    expect(gate.report(views(3), { id: 'b', assigned: SERVED }).batch.page_views).toHaveLength(3);
    now = Date.parse('2026-11-25T10:01:00Z');
    expect(gate.report(views(3), { id: 'a', assigned: SERVED }).batch.page_views).toHaveLength(3);
  });

  it(`counts ${CLIENT_LIMITS.sessionsPerHour} distinct sessions an hour per client, and one already counted again`, () => {
    const gate = admission();
    now = Date.parse('2026-11-25T10:00:00Z');
    const session = (id: string) => ({ session: { id: id.padStart(32, '0'), source: 'x', medium: 'y', campaign: 'z' } });
    for (let index = 0; index < CLIENT_LIMITS.sessionsPerHour; index += 1) expect(gate.report(session(String(index)), { id: 'a', assigned: SERVED }).batch.session).toBeDefined();
    expect(gate.report(session('new'), { id: 'a', assigned: SERVED }).batch.session).toBeUndefined();
    expect(gate.report(session('0'), { id: 'a', assigned: SERVED }).batch.session).toBeDefined();
    expect(gate.report(session('new'), { id: 'b', assigned: SERVED }).batch.session).toBeDefined();
  });
});

describe('servedPage', () => {
  it(`counts ${CLIENT_LIMITS.servedPagesPerMinute} pages of an app release a minute per client`, () => {
    const gate = admission();
    now = Date.parse('2026-11-25T11:00:00Z');
    const counted = Array.from({ length: CLIENT_LIMITS.servedPagesPerMinute + 10 }, () => gate.servedPage({ shell: 's1', blog: 'b1' }, { id: 'a' }));
    expect(counted.filter((releases) => releases.blog === 'b1')).toHaveLength(CLIENT_LIMITS.servedPagesPerMinute);
    expect(gate.servedPage({ blog: 'b1' }, { id: 'b' })).toEqual({ blog: 'b1' });
  });
});

describe('vitals', () => {
  it(`counts ${CLIENT_LIMITS.vitalsPerHour} values of each vital an hour per client and app release`, () => {
    const gate = admission();
    now = Date.parse('2026-11-25T12:00:00Z');
    const lcp = (count: number): TelemetryBatch => ({ vitals: Array.from({ length: count }, () => ({ name: 'LCP' as const, value: 100, page: '/', releases: { blog: 'b1' } })) });
    expect(gate.report(lcp(CLIENT_LIMITS.vitalsPerHour + 3), { id: 'a', assigned: SERVED }).batch.vitals).toHaveLength(CLIENT_LIMITS.vitalsPerHour);
    now = Date.parse('2026-11-25T12:30:00Z');
    expect(gate.report(lcp(1), { id: 'a', assigned: SERVED }).batch.vitals).toHaveLength(0);
    expect(gate.report({ vitals: [{ name: 'INP', value: 40, page: '/', releases: { blog: 'b1' } }] }, { id: 'a', assigned: SERVED }).batch.vitals).toHaveLength(1);
    expect(gate.report(lcp(1), { id: 'b', assigned: SERVED }).batch.vitals).toHaveLength(1);
  });
});
