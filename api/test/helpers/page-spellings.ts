/**
 * `count` other spellings of `/privacy` the router takes for it: its letters in upper and lower
 * case, its first one percent-encoded, and one or two trailing slashes.
 */
export function privacySpellings(count: number): string[] {
  const spellings = new Set<string>();
  for (let i = 0; spellings.size < count + 1; i += 1) {
    const letters = [...'privacy'].map((char, at) => ((i >> at) & 1 ? char.toUpperCase() : char));
    if (i & 128) letters[0] = '%70';
    spellings.add(`/${letters.join('')}${'/'.repeat(i % 3)}`);
  }
  spellings.delete('/privacy');
  return [...spellings].slice(0, count);
}
