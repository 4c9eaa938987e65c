const POSTAL_ADDRESS = { street: 'вул. Городоцька, 36, офіс 12', city: 'Львів', postalCode: '79007' } as const;
const WEEKDAY_HOURS = { opens: '09:00', closes: '18:00' } as const;

/** The agency's identity: one source for the header, footer, contact section and the pages' structured data. */
export const BRAND = {
  name: 'Хвиля',
  fullName: 'Діджитал-агенція «Хвиля»',
  tagline: 'Маркетинг, який приводить клієнтів',
  city: 'Львів',
  /** The city in the locative case: «у Львові». */
  cityLocative: 'у Львові',
  postalAddress: POSTAL_ADDRESS,
  address: `${POSTAL_ADDRESS.street}, ${POSTAL_ADDRESS.city}, ${POSTAL_ADDRESS.postalCode}`,
  phone: '+380 (32) 245-17-80',
  phoneHref: 'tel:+380322451780',
  email: 'hello@khvylia.com.ua',
  weekdayHours: WEEKDAY_HOURS,
  workingHours: [
    { days: 'Понеділок – пʼятниця', hours: `${WEEKDAY_HOURS.opens}–${WEEKDAY_HOURS.closes}` },
    { days: 'Субота – неділя', hours: 'вихідні' },
  ],
  /** The browser's UI around the site (theme) and the splash behind its icon (background). */
  colors: { theme: '#16307a', background: '#ffffff' },
  socials: [
    { id: 'facebook', label: 'Facebook', href: 'https://www.facebook.com/khvylia.agency' },
    { id: 'instagram', label: 'Instagram', href: 'https://www.instagram.com/khvylia.agency' },
    { id: 'linkedin', label: 'LinkedIn', href: 'https://www.linkedin.com/company/khvylia-agency' },
    { id: 'telegram', label: 'Telegram', href: 'https://t.me/khvylia_agency' },
  ],
} as const;

/** In-page anchors of the home sections; the header and the hero buttons link to them. */
export const SECTION_IDS = {
  hero: 'hero',
  about: 'about',
  services: 'services',
  reasons: 'reasons',
  team: 'team',
  vacancies: 'vacancies',
  blog: 'blog',
  contact: 'contact',
} as const;

/** Figures the hero and the about section show; the page meta quotes them too. */
export const AGENCY_STATS = {
  hero: [
    { value: '200+', label: 'реалізованих проєктів' },
    { value: '98%', label: 'задоволених клієнтів' },
    { value: '5+', label: 'років на ринку' },
  ],
  about: [
    { value: '50+', label: 'фахівців у команді' },
    { value: '24/7', label: 'підтримка клієнтів' },
  ],
} as const;

/** The home sections in the spec's order (section 2). */
export const HOME_SECTION_ORDER: readonly string[] = Object.values(SECTION_IDS);
