import { slugFromTitle } from './slug-from-title';

describe('slugFromTitle', () => {
  // Examples from the official table (Cabinet of Ministers resolution No. 55 of 2010), and titles of the blog.
  it.each([
    ['Згорани Розгон', 'zghorany-rozghon'],
    ['Знам’янка Короп’є', 'znamianka-koropie'],
    ['Юрій Їжакевич', 'yurii-yizhakevych'],
    ['Яготин Єнакієве Гаївка', 'yahotyn-yenakiieve-haivka'],
    ['Щербухи Ізмаїл Завгородній', 'shcherbukhy-izmail-zavhorodnii'],
    ['Кейс: кавʼярня у Львові', 'keis-kaviarnia-u-lvovi'],
    ['Скільки коштує лід', 'skilky-koshtuie-lid'],
    ['GA4: 5 звітів', 'ga4-5-zvitiv'],
  ])('%s → %s', (title, slug) => {
    expect(slugFromTitle(title)).toBe(slug);
  });

  it('keeps a slug to 80 characters without a trailing hyphen', () => {
    const slug = slugFromTitle('Дуже довга назва статті '.repeat(6));
    expect(slug.length).toBeLessThanOrEqual(80);
    expect(slug).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
  });
});
