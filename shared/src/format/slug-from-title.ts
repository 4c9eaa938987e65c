import cyrillicToTranslit from 'cyrillic-to-translit-js';

/** The official Ukrainian transliteration (the Cabinet of Ministers' 2010 table), as in the existing slugs. */
const transliterator = cyrillicToTranslit({ preset: 'uk' });

/** An article's slug made from its title, as the content folder's and the console's new articles get it. */
export function slugFromTitle(title: string): string {
  return transliterator
    .transform(title.toLowerCase().replace(/[ʼ’'`]/g, ''), ' ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
}
