import { BRAND, type PageMeta } from '@agency/shared';

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** JSON inside a <script> element: `<` escaped so no text can close the element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

const absolute = (origin: string, url: string) => (/^https?:\/\//i.test(url) ? url : `${origin}${url}`);

/** The agency as schema.org describes a local business, from the same facts the footer shows. */
function organizationJsonLd(origin: string) {
  return {
    '@context': 'https://schema.org',
    '@type': 'LocalBusiness',
    '@id': `${origin}/#organization`,
    name: BRAND.fullName,
    alternateName: BRAND.name,
    url: `${origin}/`,
    email: BRAND.email,
    telephone: BRAND.phoneHref.replace(/^tel:/, ''),
    address: {
      '@type': 'PostalAddress',
      streetAddress: BRAND.postalAddress.street,
      addressLocality: BRAND.postalAddress.city,
      postalCode: BRAND.postalAddress.postalCode,
      addressCountry: 'UA',
    },
    openingHoursSpecification: [
      {
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
        opens: BRAND.weekdayHours.opens,
        closes: BRAND.weekdayHours.closes,
      },
    ],
    sameAs: BRAND.socials.map((social) => social.href),
  };
}

function articleJsonLd(meta: PageMeta, origin: string) {
  return {
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    headline: meta.title,
    description: meta.description,
    mainEntityOfPage: absolute(origin, meta.path),
    ...(meta.image ? { image: absolute(origin, meta.image.url) } : {}),
    ...(meta.article
      ? {
          datePublished: meta.article.publishedTime,
          author: { '@type': 'Person', name: meta.article.author },
          articleSection: meta.article.section,
        }
      : {}),
    publisher: { '@type': 'Organization', name: BRAND.fullName, url: `${origin}/` },
  };
}

/** Title, description, canonical URL, Open Graph, Twitter card and JSON-LD for a page. */
export function headTags(meta: PageMeta, origin: string): string {
  const url = absolute(origin, meta.path);
  const tags = [
    `<title>${escapeHtml(meta.title)}</title>`,
    `<meta name="description" content="${escapeHtml(meta.description)}">`,
    meta.noindex ? '<meta name="robots" content="noindex">' : `<link rel="canonical" href="${escapeHtml(url)}">`,
    `<meta property="og:site_name" content="${escapeHtml(BRAND.name)}">`,
    '<meta property="og:locale" content="uk_UA">',
    `<meta property="og:type" content="${meta.type}">`,
    `<meta property="og:title" content="${escapeHtml(meta.title)}">`,
    `<meta property="og:description" content="${escapeHtml(meta.description)}">`,
    `<meta property="og:url" content="${escapeHtml(url)}">`,
    `<meta name="twitter:card" content="${meta.image ? 'summary_large_image' : 'summary'}">`,
    `<meta name="twitter:title" content="${escapeHtml(meta.title)}">`,
    `<meta name="twitter:description" content="${escapeHtml(meta.description)}">`,
  ];
  if (meta.image) {
    const image = escapeHtml(absolute(origin, meta.image.url));
    tags.push(
      `<meta property="og:image" content="${image}">`,
      `<meta property="og:image:width" content="${meta.image.width}">`,
      `<meta property="og:image:height" content="${meta.image.height}">`,
      `<meta property="og:image:alt" content="${escapeHtml(meta.image.alt)}">`,
      `<meta name="twitter:image" content="${image}">`,
    );
  }
  if (meta.article) {
    tags.push(
      `<meta property="article:published_time" content="${escapeHtml(meta.article.publishedTime)}">`,
      `<meta property="article:author" content="${escapeHtml(meta.article.author)}">`,
      `<meta property="article:section" content="${escapeHtml(meta.article.section)}">`,
    );
  }
  const jsonLd = meta.type === 'article' ? articleJsonLd(meta, origin) : meta.path === '/' ? organizationJsonLd(origin) : undefined;
  if (jsonLd) tags.push(`<script type="application/ld+json">${scriptJson(jsonLd)}</script>`);
  return tags.join('\n    ');
}
