import { AGENCY_STATS, BRAND } from '../constants/brand';
import { blogListingPath, type BlogListingLocation } from '../constants/blog';
import { PRIVACY_PATH } from '../constants/privacy';

/** The picture link previews show; 1200×630 is what Facebook, Telegram and X expect. */
export interface PageImage {
  /** Site-relative (`/media/…`) or absolute. */
  url: string;
  width: number;
  height: number;
  alt: string;
}

/**
 * What a page says about itself to browsers, search engines and link previews. The server turns
 * it into the <head> (title, description, canonical, Open Graph, Twitter, JSON-LD).
 */
export interface PageMeta {
  title: string;
  description: string;
  /** The page's canonical path on this site, e.g. `/blog/5`. */
  path: string;
  type: 'website' | 'article';
  /** The page's own picture for link previews; without one it shares the agency's (SITE_SHARE_IMAGE). */
  image?: PageImage;
  /** Articles only. */
  article?: { publishedTime: string; modifiedTime: string; author: string; section: string };
  /** Not for search engines (error pages). */
  noindex?: boolean;
}

/** The picture of the agency every page without its own shares. */
export const SITE_SHARE_IMAGE: PageImage = {
  url: '/media/og/khvylia-1200x630.jpg',
  width: 1200,
  height: 630,
  alt: `${BRAND.fullName}: ${BRAND.tagline.toLowerCase()}`,
};

const heroFigures = AGENCY_STATS.hero.map((stat) => `${stat.value} ${stat.label}`).join(', ');

export const HOME_PAGE_META: PageMeta = {
  title: `${BRAND.name} — діджитал-агенція ${BRAND.cityLocative}: SMM, контент, лідогенерація`,
  description: `${BRAND.fullName} зі Львова: SMM, контент-маркетинг, лідогенерація та аналітика. ${heroFigures}.`,
  path: '/',
  type: 'website',
};

/** The blog listing: every post, or one category, page by page; each page its own canonical address. */
export function blogListingPageMeta(location: BlogListingLocation): PageMeta {
  const subject = location.category ? `${location.category} — блог` : 'Блог';
  const pageSuffix = location.page > 1 ? `, сторінка ${location.page}` : '';
  const topic = location.category ? `Статті рубрики «${location.category}»` : 'Усі статті';
  return {
    title: `${subject}${pageSuffix} — ${BRAND.name}`,
    description: `${topic} агенції «${BRAND.name}»: практичні поради з SMM, контенту, лідогенерації та аналітики і кейси наших клієнтів.`,
    path: blogListingPath(location),
    type: 'website',
  };
}

/** How the agency handles the personal data its forms collect. */
export const PRIVACY_PAGE_META: PageMeta = {
  title: `Політика конфіденційності — ${BRAND.name}`,
  description: `Як ${BRAND.fullName} обробляє персональні дані із заявок на сайті: що збираємо, навіщо, як довго зберігаємо і як скористатися своїми правами.`,
  path: PRIVACY_PATH,
  type: 'website',
};

export const NOT_FOUND_TEXT = 'Сторінку не знайдено';

export function notFoundPageMeta(path: string): PageMeta {
  return {
    title: `${NOT_FOUND_TEXT} — ${BRAND.name}`,
    description: 'Такої сторінки на сайті немає. Перейдіть на головну, щоб знайти потрібне.',
    path,
    type: 'website',
    noindex: true,
  };
}
