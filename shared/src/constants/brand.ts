/** The agency's identity: one source for the header, footer and contact section. */
export const BRAND = {
  name: 'Хвиля',
  fullName: 'Діджитал-агенція «Хвиля»',
  tagline: 'Маркетинг, який приводить клієнтів',
  city: 'Львів',
  /** The city in the locative case: «у Львові». */
  cityLocative: 'у Львові',
  address: 'вул. Городоцька, 36, офіс 12, Львів, 79007',
  phone: '+380 (32) 245-17-80',
  phoneHref: 'tel:+380322451780',
  email: 'hello@khvylia.com.ua',
  workingHours: [
    { days: 'Понеділок – пʼятниця', hours: '09:00–18:00' },
    { days: 'Субота – неділя', hours: 'вихідні' },
  ],
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

/** Figures the hero and the about section show (spec section 9); the page meta quotes them too. */
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
