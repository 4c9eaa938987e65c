import { HOME_PAGE_META, type PageMeta } from '@agency/shared';
import { headTags, scriptJson } from '../src/pages/head-tags';

const ORIGIN = 'https://khvylia.example';

const article: PageMeta = {
  title: 'Кейс «Кава» <script>alert(1)</script>',
  description: 'Опис із "лапками" & амперсандом',
  path: '/blog/5',
  type: 'article',
  image: { url: '/media/blog/x.jpg', width: 1200, height: 630, alt: 'Обкладинка' },
  article: { publishedTime: '2026-03-15T10:00:00.000Z', author: 'Олена Коваль', section: 'Кейси' },
};

describe('head tags of a page', () => {
  it('escapes text from the database in every tag', () => {
    const head = headTags(article, ORIGIN);
    expect(head).not.toContain('<script>alert(1)</script>');
    expect(head).toContain('<title>Кейс «Кава» &#60;script&#62;alert(1)&#60;/script&#62;</title>');
    expect(head).toContain('content="Опис із &#34;лапками&#34; &#38; амперсандом"');
  });

  it('makes the canonical and preview URLs absolute on the site origin', () => {
    const head = headTags(article, ORIGIN);
    expect(head).toContain(`<link rel="canonical" href="${ORIGIN}/blog/5">`);
    expect(head).toContain(`<meta property="og:image" content="${ORIGIN}/media/blog/x.jpg">`);
    expect(head).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(head).toContain('<meta property="article:published_time" content="2026-03-15T10:00:00.000Z">');
  });

  it('keeps JSON-LD from closing its script element', () => {
    const head = headTags(article, ORIGIN);
    const json = /<script type="application\/ld\+json">(.*)<\/script>/.exec(head)?.[1] ?? '';
    expect(json).not.toContain('</script');
    expect(JSON.parse(json)).toMatchObject({ '@type': 'BlogPosting', headline: article.title, author: { name: 'Олена Коваль' } });
    expect(scriptJson({ text: '</script><b>' })).toBe('{"text":"\\u003c/script>\\u003cb>"}');
  });

  it('keeps error pages out of search results and gives them no canonical link', () => {
    const head = headTags({ title: 'Нема', description: 'Нема', path: '/x', type: 'website', noindex: true }, ORIGIN);
    expect(head).toContain('<meta name="robots" content="noindex">');
    expect(head).not.toContain('rel="canonical"');
  });

  it('describes the agency on the home page', () => {
    const json = /<script type="application\/ld\+json">(.*)<\/script>/.exec(headTags(HOME_PAGE_META, ORIGIN))?.[1] ?? '';
    expect(JSON.parse(json)).toMatchObject({ '@type': 'LocalBusiness', url: `${ORIGIN}/`, address: { postalCode: '79007' } });
  });
});
