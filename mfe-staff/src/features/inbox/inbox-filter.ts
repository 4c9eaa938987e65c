import { LEAD_FILTER_KEYS, type LeadFilter } from '@agency/shared';

/** The inbox's filters as the address holds them (`?status=new&q=…`), so a view can be shared and reloaded. */
export function filterFromSearch(search: string): LeadFilter {
  const params = new URLSearchParams(search);
  const filter: Record<string, string> = {};
  for (const key of LEAD_FILTER_KEYS) {
    const value = params.get(key)?.trim();
    if (value) filter[key] = value;
  }
  return filter as LeadFilter;
}

export function searchFromFilter(filter: LeadFilter): string {
  const params = new URLSearchParams();
  for (const key of LEAD_FILTER_KEYS) {
    const value = filter[key];
    if (value) params.set(key, value);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
