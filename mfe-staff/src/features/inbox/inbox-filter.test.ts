import { filterFromSearch, searchFromFilter } from './inbox-filter';

describe('the inbox filter in the address', () => {
  it('reads every filter the address names, ignoring blank and unknown ones', () => {
    expect(filterFromSearch('?status=in_progress&kind=contact&q=%D1%88%D0%B5%D0%B2%D1%87&source=&page=3&from=2026-01-01')).toEqual({
      status: 'in_progress',
      kind: 'contact',
      q: 'шевч',
      from: '2026-01-01',
    });
    expect(filterFromSearch('')).toEqual({});
  });

  it('writes a filter back as the same address, so a view can be shared and reloaded', () => {
    const filter = { status: 'won' as const, assignee: 'none', q: 'кавʼярня & ресторан', to: '2026-02-28' };
    const search = searchFromFilter(filter);
    expect(search).toBe('?status=won&assignee=none&to=2026-02-28&q=%D0%BA%D0%B0%D0%B2%CA%BC%D1%8F%D1%80%D0%BD%D1%8F+%26+%D1%80%D0%B5%D1%81%D1%82%D0%BE%D1%80%D0%B0%D0%BD');
    expect(filterFromSearch(search)).toEqual(filter);
    expect(searchFromFilter({})).toBe('');
  });
});
