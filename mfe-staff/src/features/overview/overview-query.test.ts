import { activeFilters, queryFromSearch, searchFromQuery, withFilter, withoutFilters, withPeriod } from './overview-query';

describe('the overview’s period and filters in the address', () => {
  it('reads the period and every filter, 7 days when none or an unknown one is named', () => {
    expect(queryFromSearch('')).toEqual({ period: '7d' });
    expect(queryFromSearch('?period=year')).toEqual({ period: '7d' });
    expect(queryFromSearch('?period=30d&source=instagram&campaign=+black-friday+&page=%2Fblog%2Fseo&device=mobile&q=x')).toEqual({
      period: '30d',
      source: 'instagram',
      campaign: 'black-friday',
      page: '/blog/seo',
      device: 'mobile',
    });
  });

  it('takes a range only with both days, and ignores days without one', () => {
    expect(queryFromSearch('?period=range&from=2026-11-01&to=2026-11-30')).toEqual({ period: 'range', from: '2026-11-01', to: '2026-11-30' });
    expect(queryFromSearch('?period=range&from=2026-11-01')).toEqual({ period: '7d' });
    expect(queryFromSearch('?period=today&from=2026-11-01&to=2026-11-30')).toEqual({ period: 'today' });
  });

  it('ignores a device class it does not know, and blank filters', () => {
    expect(queryFromSearch('?device=watch&source=')).toEqual({ period: '7d' });
  });

  it('writes a query back as the same address, the default period left out', () => {
    const query = { period: 'range' as const, from: '2026-11-01', to: '2026-11-30', page: '/blog/seo', device: 'tablet' as const };
    const search = searchFromQuery(query);
    expect(search).toBe('?period=range&from=2026-11-01&to=2026-11-30&page=%2Fblog%2Fseo&device=tablet');
    expect(queryFromSearch(search)).toEqual(query);
    expect(searchFromQuery({ period: '7d' })).toBe('');
  });

  it('sets, removes and lists filters, and changes the period keeping them', () => {
    const query = withFilter(withFilter({ period: 'today' }, 'source', 'google'), 'device', 'desktop');
    expect(activeFilters(query)).toEqual([
      { key: 'source', value: 'google' },
      { key: 'device', value: 'desktop' },
    ]);
    expect(withFilter(query, 'source', undefined)).toEqual({ period: 'today', device: 'desktop' });
    expect(withPeriod({ ...query, period: 'range', from: '2026-11-01', to: '2026-11-02' }, '30d')).toEqual({ period: '30d', source: 'google', device: 'desktop' });
    expect(withPeriod(query, 'range', { from: '2026-11-01', to: '2026-11-02' })).toEqual({ ...query, period: 'range', from: '2026-11-01', to: '2026-11-02' });
    expect(withoutFilters({ ...query, period: 'range', from: '2026-11-01', to: '2026-11-02' })).toEqual({ period: 'range', from: '2026-11-01', to: '2026-11-02' });
  });
});
