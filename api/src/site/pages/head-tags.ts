import { applyForVacancyPath, BRAND, SITE_ICONS, SITE_LOGO, SITE_SHARE_IMAGE, VACANCIES, WEB_APP_MANIFEST_PATH, type PageImage, type PageMeta, type Vacancy } from '@agency/shared';
import { escapeHtml } from '../../platform/lib/escape-html';

/** JSON inside a <script> element: `<` escaped so no text can close the element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

const absolute = (origin: string, url: string) => (/^https?:\/\//i.test(url) ? url : `${origin}${url}`);

/** A picture as schema.org describes one, with its size. */
function imageObject(origin: string, image: Omit<PageImage, 'alt'> & { alt?: string }) {
  return {
    '@type': 'ImageObject',
    url: absolute(origin, image.url),
    width: image.width,
    height: image.height,
    ...(image.alt ? { caption: image.alt } : {}),
  };
}

function logo(origin: string) {
  const [width = 0, height = 0] = SITE_LOGO.sizes.split('x').map(Number);
  return imageObject(origin, { url: SITE_LOGO.href, width, height });
}

/** The office, as schema.org describes an address. */
const POSTAL_ADDRESS = {
  '@type': 'PostalAddress',
  streetAddress: BRAND.postalAddress.street,
  addressLocality: BRAND.postalAddress.city,
  postalCode: BRAND.postalAddress.postalCode,
  addressCountry: 'UA',
};

/** The agency as schema.org describes a local business, from the same facts the footer shows. */
function organizationJsonLd(origin: string) {
  return {
    '@context': 'https://schema.org',
    '@type': 'LocalBusiness',
    '@id': `${origin}/#organization`,
    name: BRAND.fullName,
    alternateName: BRAND.name,
    description: BRAND.tagline,
    url: `${origin}/`,
    logo: logo(origin),
    image: imageObject(origin, SITE_SHARE_IMAGE),
    email: BRAND.email,
    telephone: BRAND.phoneHref.replace(/^tel:/, ''),
    address: POSTAL_ADDRESS,
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

function articleJsonLd(meta: PageMeta, image: PageImage, origin: string) {
  const url = absolute(origin, meta.path);
  return {
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    headline: meta.title,
    description: meta.description,
    url,
    mainEntityOfPage: { '@type': 'WebPage', '@id': url },
    image: imageObject(origin, image),
    inLanguage: 'uk-UA',
    ...(meta.article
      ? {
          datePublished: meta.article.publishedTime,
          dateModified: meta.article.modifiedTime,
          author: { '@type': 'Person', name: meta.article.author },
          articleSection: meta.article.section,
        }
      : {}),
    publisher: { '@type': 'Organization', name: BRAND.fullName, url: `${origin}/`, logo: logo(origin) },
  };
}

/** An open vacancy as schema.org describes a job posting: it is on the home page, beside the form to apply. */
function jobPostingJsonLd(vacancy: Vacancy, origin: string) {
  return {
    '@context': 'https://schema.org',
    '@type': 'JobPosting',
    title: vacancy.title,
    description: `<p>${escapeHtml(vacancy.description)}</p>`,
    identifier: { '@type': 'PropertyValue', name: BRAND.fullName, value: vacancy.id },
    datePosted: vacancy.datePosted,
    validThrough: vacancy.validThrough,
    employmentType: vacancy.employmentType,
    url: absolute(origin, applyForVacancyPath(vacancy)),
    hiringOrganization: { '@type': 'Organization', '@id': `${origin}/#organization`, name: BRAND.fullName, sameAs: `${origin}/`, logo: logo(origin).url },
    jobLocation: { '@type': 'Place', address: POSTAL_ADDRESS },
    baseSalary: {
      '@type': 'MonetaryAmount',
      currency: 'UAH',
      value: { '@type': 'QuantitativeValue', minValue: vacancy.salaryFrom, maxValue: vacancy.salaryTo, unitText: 'MONTH' },
    },
  };
}

/** The site's icons, the web app manifest and the colour of the browser's UI around the page. */
function iconTags(): string[] {
  // The ICO is named 32×32 only: browsers that take SVG then prefer the SVG (and Chromium stops
  // picking the ICO for its sharper 48 px image).
  return [
    `<link rel="icon" href="${SITE_ICONS.ico.href}" sizes="32x32">`,
    `<link rel="icon" href="${SITE_ICONS.svg.href}" type="${SITE_ICONS.svg.type}">`,
    `<link rel="apple-touch-icon" href="${SITE_ICONS.appleTouch.href}">`,
    `<link rel="manifest" href="${WEB_APP_MANIFEST_PATH}">`,
    `<meta name="theme-color" content="${BRAND.colors.theme}">`,
  ];
}

/** Title, description, canonical URL, icons, Open Graph, Twitter card and JSON-LD for a page. */
export function headTags(meta: PageMeta, origin: string): string {
  const url = absolute(origin, meta.path);
  const image = meta.image ?? SITE_SHARE_IMAGE;
  const imageUrl = escapeHtml(absolute(origin, image.url));
  const tags = [
    `<title>${escapeHtml(meta.title)}</title>`,
    `<meta name="description" content="${escapeHtml(meta.description)}">`,
    meta.noindex ? '<meta name="robots" content="noindex">' : `<link rel="canonical" href="${escapeHtml(url)}">`,
    ...iconTags(),
    `<meta property="og:site_name" content="${escapeHtml(BRAND.name)}">`,
    '<meta property="og:locale" content="uk_UA">',
    `<meta property="og:type" content="${meta.type}">`,
    `<meta property="og:title" content="${escapeHtml(meta.title)}">`,
    `<meta property="og:description" content="${escapeHtml(meta.description)}">`,
    `<meta property="og:url" content="${escapeHtml(url)}">`,
    `<meta property="og:image" content="${imageUrl}">`,
    `<meta property="og:image:width" content="${image.width}">`,
    `<meta property="og:image:height" content="${image.height}">`,
    `<meta property="og:image:alt" content="${escapeHtml(image.alt)}">`,
    '<meta name="twitter:card" content="summary_large_image">',
    `<meta name="twitter:title" content="${escapeHtml(meta.title)}">`,
    `<meta name="twitter:description" content="${escapeHtml(meta.description)}">`,
    `<meta name="twitter:image" content="${imageUrl}">`,
    `<meta name="twitter:image:alt" content="${escapeHtml(image.alt)}">`,
  ];
  if (meta.article) {
    tags.push(
      `<meta property="article:published_time" content="${escapeHtml(meta.article.publishedTime)}">`,
      `<meta property="article:modified_time" content="${escapeHtml(meta.article.modifiedTime)}">`,
      `<meta property="article:author" content="${escapeHtml(meta.article.author)}">`,
      `<meta property="article:section" content="${escapeHtml(meta.article.section)}">`,
    );
  }
  const jsonLd =
    meta.type === 'article'
      ? [articleJsonLd(meta, image, origin)]
      : meta.path === '/'
        ? [organizationJsonLd(origin), ...VACANCIES.map((vacancy) => jobPostingJsonLd(vacancy, origin))]
        : [];
  for (const item of jsonLd) tags.push(`<script type="application/ld+json">${scriptJson(item)}</script>`);
  return tags.join('\n    ');
}
