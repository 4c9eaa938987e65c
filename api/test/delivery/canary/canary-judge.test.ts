import { judgeCandidate, MIN_CLIENTS, VITALS_REGRESSION } from '../../../src/delivery/canary/canary-judge';

type Health = Parameters<typeof judgeCandidate>[1]['candidate'];

interface Shape {
  /** Pages the server sent with the release on them. */
  views?: number;
  served?: number;
  erring?: number;
  failing?: number;
  vitalsClients?: number;
  render_failures?: number;
  lcp?: number | null;
  lcpSamples?: number;
}

function health({ views = 0, served = 0, erring = 0, failing = 0, vitalsClients = 0, render_failures = 0, lcp = null, lcpSamples = 0 }: Shape): Health {
  return {
    judged_page_views: views,
    clients: { served, error: erring, load_failure: failing, vitals: vitalsClients },
    render_failures,
    vitals: { lcp_p75_ms: lcp, inp_p75_ms: null, cls_p75: null, fcp_p75_ms: null, ttfb_p75_ms: null },
    vitals_samples: { lcp: lcpSamples, inp: 0 },
  };
}

const rules = { minViews: 10, promoteAfter: null };

describe('judgeCandidate', () => {
  it('waits for --min-views pages the server sent, however many clients report errors', () => {
    const verdict = judgeCandidate(rules, { candidate: health({ views: 9, served: 9, erring: 9 }), current: health({ views: 100, served: 50 }) });
    expect(verdict).toEqual({ action: 'wait', reason: '9 of 10 page views before it is judged' });
  });

  it('rolls back when more than double the share of its clients report errors, and 2 points more, than the current release’s', () => {
    const verdict = judgeCandidate(rules, { candidate: health({ views: 12, served: 6, erring: 6 }), current: health({ views: 40, served: 20 }) });
    expect(verdict).toEqual({
      action: 'roll_back',
      reason: "errors from 6 of 6 clients (100 %) over 12 page views, against 0 % of the current release's 20 clients",
    });
  });

  it(`decides nothing on errors from fewer than ${MIN_CLIENTS} clients, however many each sends`, () => {
    const fewClients = { candidate: health({ views: 500, served: MIN_CLIENTS - 1, erring: MIN_CLIENTS - 1 }), current: health({ views: 40, served: 20 }) };
    expect(judgeCandidate(rules, fewClients).action).toBe('wait');
    const enough = { ...fewClients, candidate: health({ views: 500, served: MIN_CLIENTS, erring: MIN_CLIENTS }) };
    expect(judgeCandidate(rules, enough).action).toBe('roll_back');
  });

  it('keeps a candidate that is worse by less than the margin: 1 client in 100 against none, or 5 % against 3 %', () => {
    expect(judgeCandidate(rules, { candidate: health({ views: 100, served: 100, erring: 1 }), current: health({ views: 100, served: 100 }) }).action).toBe('wait');
    expect(
      judgeCandidate(rules, { candidate: health({ views: 100, served: 100, erring: 5 }), current: health({ views: 100, served: 100, erring: 3 }) }).action,
    ).toBe('wait');
  });

  it('counts each client once: errors from the current release’s clients are a share of them too', () => {
    const noisy = { candidate: health({ views: 40, served: 20, erring: 6 }), current: health({ views: 40, served: 20, erring: 5 }) };
    expect(judgeCandidate(rules, noisy).action).toBe('wait');
  });

  it('rolls back on load failures judged the same way', () => {
    const verdict = judgeCandidate(rules, { candidate: health({ views: 20, served: 20, failing: 5 }), current: health({ views: 20, served: 20 }) });
    expect(verdict).toMatchObject({ action: 'roll_back', reason: expect.stringMatching(/^load failures from 5 of 20 clients \(25 %\)/) });
  });

  it('rolls back at once when its server render fails and the current release’s does not, before any page view', () => {
    const verdict = judgeCandidate(rules, { candidate: health({ render_failures: 1 }), current: health({ views: 50 }) });
    expect(verdict).toEqual({ action: 'roll_back', reason: "its server render failed 1 time(s), the current release's 0" });
  });

  it(`promotes after --promote-after healthy page views sent to at least ${MIN_CLIENTS} clients, and leaves promotion to a person without it`, () => {
    const healthy = { candidate: health({ views: 12, served: MIN_CLIENTS }), current: health({ views: 12, served: 8 }) };
    expect(judgeCandidate({ minViews: 10, promoteAfter: 12 }, healthy)).toEqual({
      action: 'promote',
      reason: `healthy over 12 page views sent to ${MIN_CLIENTS} clients (errors and load failures no worse than the current release's)`,
    });
    expect(judgeCandidate({ minViews: 10, promoteAfter: 13 }, healthy)).toEqual({ action: 'wait', reason: 'healthy over 12 of 13 page views before promotion' });
    expect(judgeCandidate({ minViews: 10, promoteAfter: null }, healthy)).toEqual({ action: 'wait', reason: 'healthy over 12 page views; a person promotes it' });
  });

  it('never promotes on the pages of one client, however many it asked for', () => {
    const oneClient = { candidate: health({ views: 1000, served: 1 }), current: health({ views: 12, served: 8 }) };
    expect(judgeCandidate({ minViews: 10, promoteAfter: 200 }, oneClient)).toEqual({
      action: 'wait',
      reason: `healthy over 1000 page views, sent to 1 of the ${MIN_CLIENTS} clients promotion needs`,
    });
  });

  it('holds promotion on a p75 LCP more than 20 % worse with enough samples and clients on both sides, and never rolls back for it', () => {
    const enough: number = VITALS_REGRESSION.minSamples;
    const side = (lcp: number, lcpSamples = enough, vitalsClients = MIN_CLIENTS) => health({ views: 30, served: 10, lcp, lcpSamples, vitalsClients });
    const rulesToPromote = { minViews: 10, promoteAfter: 20 };
    expect(judgeCandidate(rulesToPromote, { candidate: side(3000), current: side(2000) })).toEqual({
      action: 'hold',
      reason: 'promotion held: p75 LCP 3000 ms against 2000 ms of the current release (more than 20 % worse)',
    });
    expect(judgeCandidate(rulesToPromote, { candidate: side(3000, enough - 1), current: side(2000) }).action).toBe('promote');
    expect(judgeCandidate(rulesToPromote, { candidate: side(3000, enough, MIN_CLIENTS - 1), current: side(2000) }).action).toBe('promote');
    expect(judgeCandidate(rulesToPromote, { candidate: side(2400), current: side(2000) }).action).toBe('promote');
  });
});
