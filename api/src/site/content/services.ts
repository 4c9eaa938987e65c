import type { Service } from '@agency/shared';

/** A service as it is seeded: what the site shows (the database gives the id), its slug and place in the list. */
export type SeedService = Omit<Service, 'id'> & { slug: string; sort_order: number };

/** Seed services of «Хвиля». The first four line up with the contact form's service types. */
export const SEED_SERVICES: SeedService[] = [
  {
    slug: 'smm',
    title: 'SMM та просування',
    description:
      'Ведемо соціальні мережі бренду так, щоб про вас говорили: стратегія, контент-план, щоденні публікації та живе спілкування з аудиторією.',
    icon_url: '/media/services/smm.svg',
    features: ['Стратегія та аудит сторінок', 'Контент-план на місяць', 'Модерація коментарів і директу', 'Щомісячний звіт із висновками'],
    price_from: 12000,
    sort_order: 1,
  },
  {
    slug: 'content',
    title: 'Контент-маркетинг',
    description:
      'Створюємо тексти, фото та відео, які пояснюють цінність продукту й допомагають клієнтові ухвалити рішення.',
    icon_url: '/media/services/content.svg',
    features: ['Статті для блогу та розсилок', 'Сценарії коротких відео', 'Фото- та відеозйомка', 'Редполітика й тон голосу бренду'],
    price_from: 15000,
    sort_order: 2,
  },
  {
    slug: 'leads',
    title: 'Лідогенерація',
    description:
      'Вибудовуємо систему, яка щодня приводить заявки: від посадкової сторінки й реклами до передачі ліда у відділ продажу.',
    icon_url: '/media/services/leads.svg',
    features: ['Посадкові сторінки під кампанію', 'Лід-магніти та квізи', 'Інтеграція з CRM', 'Оплата за результат за домовленістю'],
    price_from: 18000,
    sort_order: 3,
  },
  {
    slug: 'analytics',
    title: 'Аналітика та звітність',
    description:
      'Налаштовуємо наскрізну аналітику, щоб ви бачили, яка гривня в маркетингу повертається продажем, а яка — ні.',
    icon_url: '/media/services/analytics.svg',
    features: ['Налаштування GA4 і тегів', 'Наскрізна аналітика з CRM', 'Дашборди в Looker Studio', 'Рекомендації на основі даних'],
    price_from: 9000,
    sort_order: 4,
  },
  {
    slug: 'targeting',
    title: 'Таргетована реклама',
    description:
      'Запускаємо рекламу в Meta, TikTok і Google для тих, хто справді може купити, і щотижня оптимізуємо вартість заявки.',
    icon_url: '/media/services/targeting.svg',
    features: ['Сегментація аудиторій', 'Креативи та A/B-тести', 'Ретаргетинг', 'Щотижнева оптимізація бюджету'],
    price_from: 8000,
    sort_order: 5,
  },
  {
    slug: 'seo',
    title: 'SEO-просування',
    description:
      'Виводимо сайт у пошук за запитами, які приносять клієнтів, а не лише трафік: технічна оптимізація, контент і посилання.',
    icon_url: '/media/services/seo.svg',
    features: ['Технічний аудит сайту', 'Семантичне ядро', 'Оптимізація сторінок і швидкості', 'Локальне SEO для Львова та області'],
    price_from: 14000,
    sort_order: 6,
  },
  {
    slug: 'branding',
    title: 'Брендинг і айдентика',
    description:
      'Допомагаємо сформулювати, хто ви і чим відрізняєтеся, та перетворюємо це на впізнаваний візуальний стиль.',
    icon_url: '/media/services/branding.svg',
    features: ['Платформа бренду', 'Логотип і фірмовий стиль', 'Брендбук', 'Шаблони для соцмереж'],
    price_from: null,
    sort_order: 7,
  },
];
