/** `rows` in consecutive slices of at most `size`: one statement's rows each. */
export function chunks<T>(rows: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < rows.length; start += size) result.push(rows.slice(start, start + size));
  return result;
}
