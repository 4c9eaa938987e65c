/** The Ukrainian forms of a word after a number: 1 день, 2 дні, 5 днів. */
export interface UkrainianForms {
  one: string;
  few: string;
  many: string;
}

const rules = new Intl.PluralRules('uk-UA');

/** `count` and the word in the form Ukrainian puts after it (`2 дні`, `21 день`, `11 днів`). */
export function countOf(count: number, forms: UkrainianForms): string {
  const category = rules.select(count);
  return `${count} ${category === 'one' ? forms.one : category === 'few' ? forms.few : forms.many}`;
}

export const DAYS: UkrainianForms = { one: 'день', few: 'дні', many: 'днів' };
export const MONTHS: UkrainianForms = { one: 'місяць', few: 'місяці', many: 'місяців' };
