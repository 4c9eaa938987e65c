import { sql, type RawBuilder } from 'kysely';
import type { DialectName } from '../../platform/db/dialect';
import { phoneKey, searchWords } from '../../site/leads';

/**
 * A person's search → a full-text condition on the id of `table` (leads, or an alias of it): every word must start a word of the
 * lead's text (so «шевч» finds «Шевченко»). A search of digits alone (a phone, however typed)
 * looks for the number's phoneKey, which the index holds for every phone.
 * Undefined when the search holds no word at all.
 */
export function leadSearchCondition(dialect: DialectName, search: string, table = 'leads'): RawBuilder<boolean> | undefined {
  const id = sql.ref(`${table}.id`);
  const digits = search.replace(/\D/g, '');
  const words = !/\p{L}/u.test(search) && digits.length >= 7 ? [phoneKey(search)] : searchWords(search);
  if (words.length === 0) return undefined;
  // Words are letters and digits only, so nothing in them is syntax of either query language.
  if (dialect === 'postgres') {
    const query = words.map((word) => `${word}:*`).join(' & ');
    return sql<boolean>`${id} in (select lead_id from lead_search where document @@ to_tsquery('simple', ${query}))`;
  }
  const query = words.map((word) => `"${word}"*`).join(' ');
  return sql<boolean>`${id} in (select rowid from lead_search where lead_search match ${query})`;
}
