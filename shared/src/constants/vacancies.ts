/** The three fixed vacancies (spec section 3). Titles are also the only valid `position` values. */
export interface Vacancy {
  id: string;
  title: string;
  salaryFrom: number;
  salaryTo: number;
  description: string;
}

export const VACANCIES: readonly Vacancy[] = [
  {
    id: 'client-support-manager',
    title: 'Менеджер служби підтримки клієнтів',
    salaryFrom: 20000,
    salaryTo: 30000,
    description:
      'Відповідаєте клієнтам у месенджерах і телефоном, ведете звернення до розв’язання та допомагаєте команді чути, чого насправді потребують наші замовники.',
  },
  {
    id: 'social-media-administrator',
    title: 'Адміністратор соціальних мереж',
    salaryFrom: 18000,
    salaryTo: 28000,
    description:
      'Плануєте й публікуєте контент, модеруєте коментарі, стежите за трендами та звітуєте про охоплення й залучення для кількох брендів одночасно.',
  },
  {
    id: 'sales-manager',
    title: 'Менеджер з продажу та роботи з клієнтами',
    salaryFrom: 22000,
    salaryTo: 35000,
    description:
      'Знаходите й ведете нових клієнтів від першого дзвінка до підписання договору, готуєте комерційні пропозиції та будуєте довгі партнерські стосунки.',
  },
] as const;

export const VACANCY_TITLES: readonly string[] = VACANCIES.map((vacancy) => vacancy.title);
