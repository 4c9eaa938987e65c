/** Money in hryvnias as visitors read it (uk-UA grouping, ₴ after the amount). */
let uahNumber: Intl.NumberFormat | undefined;

// Made on first use, not when the module loads: the first Intl formatter of a page loads the
// locale's data, about 25 ms of main-thread work (100 ms on a mid-range phone), and this module
// is in the shell's entry, where nothing formats money.
const uahNumberFormat = () => (uahNumber ??= new Intl.NumberFormat('uk-UA', { maximumFractionDigits: 0 }));

export const CURRENCY_SYMBOL = '₴';

/** `12500` → `12 500` (uk-UA groups thousands with a no-break space). */
export function formatAmount(amount: number): string {
  return uahNumberFormat().format(amount);
}

/** `12500` → `від 12 500 ₴`; the no-break space keeps the symbol on the amount's line. */
export function formatPriceFrom(amount: number): string {
  return `від ${formatAmount(amount)}\u00a0${CURRENCY_SYMBOL}`;
}

/** `20000, 30000` → `20 000 – 30 000 ₴`. */
export function formatSalaryRange(from: number, to: number): string {
  return `${formatAmount(from)} – ${formatAmount(to)}\u00a0${CURRENCY_SYMBOL}`;
}
