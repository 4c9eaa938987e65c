/** Joins the truthy class names (CSS Module lookups are `string | undefined` under strict indexing). */
export function cx(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(' ');
}
