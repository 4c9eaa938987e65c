import { DIRECT_SOURCE, NO_MEDIUM, NOT_SET } from '@agency/shared';
import { combineConversion } from '../../../../src/site/leads/submissions/conversion-report';

const facebook = { source: 'facebook', medium: 'cpc', campaign: 'black-friday' };
const direct = { source: DIRECT_SOURCE, medium: NO_MEDIUM, campaign: NOT_SET };
const google = { source: 'google', medium: 'cpc', campaign: NOT_SET };
const unknown = { source: NOT_SET, medium: NOT_SET, campaign: NOT_SET };

describe('combineConversion', () => {
  it('sums sessions and each kind of lead per source, medium and campaign', () => {
    const rows = combineConversion(
      [
        { ...facebook, sessions: 40 },
        { ...direct, sessions: 100 },
        { ...google, sessions: 40 },
      ],
      { contact: [facebook, facebook, direct, unknown], applications: [facebook, google, google] },
    );
    expect(rows).toEqual([
      { ...direct, sessions: 100, contact: 1, applications: 0, conversion_rate: 0.01 },
      // As many sessions as facebook; more leads first.
      { ...facebook, sessions: 40, contact: 2, applications: 1, conversion_rate: 0.075 },
      { ...google, sessions: 40, contact: 0, applications: 2, conversion_rate: 0.05 },
      { ...unknown, sessions: 0, contact: 1, applications: 0, conversion_rate: null },
    ]);
  });

  it('keeps sources apart that differ in medium or campaign only, and orders ties by name', () => {
    const rows = combineConversion(
      [
        { ...facebook, campaign: 'spring', sessions: 5 },
        { ...facebook, sessions: 5 },
        { ...facebook, medium: 'social', sessions: 5 },
      ],
      { contact: [], applications: [] },
    );
    expect(rows.map(({ medium, campaign }) => `${medium} ${campaign}`)).toEqual(['cpc black-friday', 'cpc spring', 'social black-friday']);
  });

  it('is empty when nothing was counted', () => {
    expect(combineConversion([], { contact: [], applications: [] })).toEqual([]);
  });
});
