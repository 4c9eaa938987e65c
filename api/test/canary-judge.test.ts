import { judgeCandidate, VITALS_REGRESSION } from '../src/delivery/canary-judge';

type Health = Parameters<typeof judgeCandidate>[1]['candidate'];

function health(overrides: Partial<Health> & { lcp?: number | null; lcpSamples?: number }): Health {
  const { lcp = null, lcpSamples = 0, ...rest } = overrides;
  return {
    page_views: 0,
    errors: 0,
    load_failures: 0,
    render_failures: 0,
    vitals: { lcp_p75_ms: lcp, inp_p75_ms: null, cls_p75: null, fcp_p75_ms: null, ttfb_p75_ms: null },
    vitals_samples: { lcp: lcpSamples, inp: 0 },
    ...rest,
  };
}

const rules = { minViews: 10, promoteAfter: null };

describe('judgeCandidate', () => {
  it('waits for --min-views candidate page views, however bad the first ones are', () => {
    const verdict = judgeCandidate(rules, { candidate: health({ page_views: 9, errors: 9 }), current: health({ page_views: 100 }) });
    expect(verdict).toEqual({ action: 'wait', reason: '9 of 10 page views before it is judged' });
  });

  it('rolls back a candidate whose errors per page view are more than double and 2 points above the current release’s', () => {
    const verdict = judgeCandidate(rules, { candidate: health({ page_views: 10, errors: 10 }), current: health({ page_views: 40, errors: 0 }) });
    expect(verdict.action).toBe('roll_back');
    expect(verdict.reason).toBe('errors 100 % per page view over 10 page views, against 0 % of the current release over 40');
  });

  it('keeps a candidate that is worse by less than the margin: one error in 100 views against none, or 5 % against 3 %', () => {
    expect(judgeCandidate(rules, { candidate: health({ page_views: 100, errors: 1 }), current: health({ page_views: 100 }) }).action).toBe('wait');
    expect(judgeCandidate(rules, { candidate: health({ page_views: 100, errors: 5 }), current: health({ page_views: 100, errors: 3 }) }).action).toBe('wait');
  });

  it('rolls back on load failures judged the same way', () => {
    const verdict = judgeCandidate(rules, { candidate: health({ page_views: 20, load_failures: 4 }), current: health({ page_views: 20, load_failures: 0 }) });
    expect(verdict).toMatchObject({ action: 'roll_back', reason: expect.stringMatching(/^load failures 20 % per page view/) });
  });

  it('rolls back at once when its server render fails and the current release’s does not, before any page view', () => {
    const verdict = judgeCandidate(rules, { candidate: health({ render_failures: 1 }), current: health({ page_views: 50 }) });
    expect(verdict).toEqual({ action: 'roll_back', reason: "its server render failed 1 time(s), the current release's 0" });
  });

  it('promotes after --promote-after healthy page views, and leaves promotion to a person without it', () => {
    const healthy = { candidate: health({ page_views: 12 }), current: health({ page_views: 12 }) };
    expect(judgeCandidate({ minViews: 10, promoteAfter: 12 }, healthy).action).toBe('promote');
    expect(judgeCandidate({ minViews: 10, promoteAfter: 13 }, healthy)).toEqual({ action: 'wait', reason: 'healthy over 12 of 13 page views before promotion' });
    expect(judgeCandidate({ minViews: 10, promoteAfter: null }, healthy)).toEqual({ action: 'wait', reason: 'healthy over 12 page views; a person promotes it' });
  });

  it('holds promotion on a p75 LCP more than 20 % worse with enough samples on both sides, and never rolls back for it', () => {
    const enough = VITALS_REGRESSION.minSamples;
    const slower = { candidate: health({ page_views: 30, lcp: 3000, lcpSamples: enough }), current: health({ page_views: 30, lcp: 2000, lcpSamples: enough }) };
    expect(judgeCandidate({ minViews: 10, promoteAfter: 20 }, slower)).toEqual({
      action: 'hold',
      reason: 'promotion held: p75 LCP 3000 ms against 2000 ms of the current release (more than 20 % worse)',
    });
    const fewSamples = { ...slower, candidate: health({ page_views: 30, lcp: 3000, lcpSamples: enough - 1 }) };
    expect(judgeCandidate({ minViews: 10, promoteAfter: 20 }, fewSamples).action).toBe('promote');
    const withinMargin = { ...slower, candidate: health({ page_views: 30, lcp: 2400, lcpSamples: enough }) };
    expect(judgeCandidate({ minViews: 10, promoteAfter: 20 }, withinMargin).action).toBe('promote');
  });
});
