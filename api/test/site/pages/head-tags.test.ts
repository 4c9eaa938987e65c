import { BRAND, HOME_PAGE_META, SITE_SHARE_IMAGE, VACANCIES, type PageMeta } from '@agency/shared';
import { headTags, scriptJson } from '../../../src/site/pages/head-tags';

const ORIGIN = 'https://khvylia.example';

const article: PageMeta = {
  title: 'Кейс «Кава» <script>alert(1)</script>',
  description: 'Опис із "лапками" & амперсандом',
  path: '/blog/5',
  type: 'article',
  image: { url: '/media/blog/x.jpg', width: 1200, height: 630, alt: 'Обкладинка' },
  article: { publishedTime: '2026-03-15T10:00:00.000Z', modifiedTime: '2026-03-20T08:00:00.000Z', author: 'Олена Коваль', section: 'Кейси' },
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

  it('gives every page a preview picture with its alt text, the agency\'s where the page has none of its own', () => {
    const notFound = headTags({ title: 'Нема', description: 'Нема', path: '/x', type: 'website', noindex: true }, ORIGIN);
    expect(notFound).toContain(`<meta property="og:image" content="${ORIGIN}${SITE_SHARE_IMAGE.url}">`);
    expect(notFound).toContain(`<meta name="twitter:image" content="${ORIGIN}${SITE_SHARE_IMAGE.url}">`);
    expect(notFound).toContain('<meta property="og:image:alt" content="Діджитал-агенція «Хвиля»: маркетинг, який приводить клієнтів">');
    expect(notFound).toContain('<meta name="twitter:image:alt" content="Діджитал-агенція «Хвиля»: маркетинг, який приводить клієнтів">');
    const post = headTags(article, ORIGIN);
    expect(post).toContain('<meta property="og:image:alt" content="Обкладинка">');
    expect(post).toContain('<meta name="twitter:image:alt" content="Обкладинка">');
  });

  it('names the icons, the web app manifest and the theme colour, with URLs that need no escaping', () => {
    const head = headTags(HOME_PAGE_META, ORIGIN);
    for (const tag of [
      '<link rel="icon" href="/favicon.ico" sizes="32x32">',
      '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
      '<link rel="apple-touch-icon" href="/apple-touch-icon.png">',
      '<link rel="manifest" href="/site.webmanifest">',
      `<meta name="theme-color" content="${BRAND.colors.theme}">`,
    ]) {
      expect(head).toContain(tag);
    }
  });

  it('describes a post for rich results: publisher with logo, page, image and both dates', () => {
    const json = /<script type="application\/ld\+json">(.*)<\/script>/.exec(headTags(article, ORIGIN))?.[1] ?? '';
    expect(JSON.parse(json)).toMatchObject({
      '@type': 'BlogPosting',
      mainEntityOfPage: { '@type': 'WebPage', '@id': `${ORIGIN}/blog/5` },
      image: { '@type': 'ImageObject', url: `${ORIGIN}/media/blog/x.jpg`, width: 1200, height: 630 },
      datePublished: '2026-03-15T10:00:00.000Z',
      dateModified: '2026-03-20T08:00:00.000Z',
      publisher: { '@type': 'Organization', name: BRAND.fullName, logo: { '@type': 'ImageObject', url: `${ORIGIN}/icon-512.png`, width: 512, height: 512 } },
    });
  });

  it('keeps error pages out of search results and gives them no canonical link', () => {
    const head = headTags({ title: 'Нема', description: 'Нема', path: '/x', type: 'website', noindex: true }, ORIGIN);
    expect(head).toContain('<meta name="robots" content="noindex">');
    expect(head).not.toContain('rel="canonical"');
  });

  it('describes the agency on the home page', () => {
    const json = /<script type="application\/ld\+json">(.*)<\/script>/.exec(headTags(HOME_PAGE_META, ORIGIN))?.[1] ?? '';
    expect(JSON.parse(json)).toMatchObject({
      '@type': 'LocalBusiness',
      url: `${ORIGIN}/`,
      telephone: '+380322451780',
      address: { '@type': 'PostalAddress', postalCode: '79007', addressLocality: 'Львів', addressCountry: 'UA' },
      openingHoursSpecification: [{ dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'], opens: '09:00', closes: '18:00' }],
      logo: { '@type': 'ImageObject', url: `${ORIGIN}/icon-512.png` },
      image: { '@type': 'ImageObject', url: `${ORIGIN}${SITE_SHARE_IMAGE.url}` },
      sameAs: BRAND.socials.map((social) => social.href),
    });
  });

  it('describes each open vacancy on the home page as a job posting: salary in UAH, the Lviv office, its dates', () => {
    const blocks = [...headTags(HOME_PAGE_META, ORIGIN).matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map(([, json]) => JSON.parse(json!) as { '@type': string });
    const postings = blocks.filter((block) => block['@type'] === 'JobPosting');
    expect(postings).toHaveLength(VACANCIES.length);
    for (const [index, vacancy] of VACANCIES.entries()) {
      expect(postings[index]).toMatchObject({
        title: vacancy.title,
        description: expect.stringContaining(vacancy.description.slice(0, 40)),
        datePosted: vacancy.datePosted,
        validThrough: vacancy.validThrough,
        employmentType: 'FULL_TIME',
        url: `${ORIGIN}/?position=${vacancy.id}#job-application`,
        hiringOrganization: { name: BRAND.fullName },
        jobLocation: { address: { addressLocality: 'Львів', postalCode: '79007', addressCountry: 'UA' } },
        baseSalary: { currency: 'UAH', value: { minValue: vacancy.salaryFrom, maxValue: vacancy.salaryTo, unitText: 'MONTH' } },
      });
    }
    // Only on the home page, where the vacancies are.
    expect(headTags({ ...HOME_PAGE_META, path: '/privacy' }, ORIGIN)).not.toContain('JobPosting');
  });
});
