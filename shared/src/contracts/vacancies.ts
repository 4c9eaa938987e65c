/** The three fixed vacancies. Titles are also the only valid `position` values. */
export interface Vacancy {
  id: string;
  title: string;
  salaryFrom: number;
  salaryTo: number;
  description: string;
  /** When the vacancy was opened and until when applications are taken (ISO 8601, Kyiv time). */
  datePosted: string;
  validThrough: string;
  /** As schema.org's JobPosting names it. */
  employmentType: 'FULL_TIME' | 'PART_TIME';
}

export const VACANCIES: readonly Vacancy[] = [
  {
    id: 'client-support-manager',
    title: 'Менеджер служби підтримки клієнтів',
    salaryFrom: 20000,
    salaryTo: 30000,
    description:
      'Відповідаєте клієнтам у месенджерах і телефоном, ведете звернення до розвʼязання та допомагаєте команді чути, чого насправді потребують наші замовники.',
    datePosted: '2026-11-02',
    validThrough: '2027-02-28T23:59:59+02:00',
    employmentType: 'FULL_TIME',
  },
  {
    id: 'social-media-administrator',
    title: 'Адміністратор соціальних мереж',
    salaryFrom: 18000,
    salaryTo: 28000,
    description:
      'Плануєте й публікуєте контент, модеруєте коментарі, стежите за трендами та звітуєте про охоплення й залучення для кількох брендів одночасно.',
    datePosted: '2026-11-02',
    validThrough: '2027-02-28T23:59:59+02:00',
    employmentType: 'FULL_TIME',
  },
  {
    id: 'sales-manager',
    title: 'Менеджер з продажу та роботи з клієнтами',
    salaryFrom: 22000,
    salaryTo: 35000,
    description:
      'Знаходите й ведете нових клієнтів від першого дзвінка до підписання договору, готуєте комерційні пропозиції та будуєте довгі партнерські стосунки.',
    datePosted: '2026-11-16',
    validThrough: '2027-02-28T23:59:59+02:00',
    employmentType: 'FULL_TIME',
  },
] as const;

export const VACANCY_TITLES: readonly string[] = VACANCIES.map((vacancy) => vacancy.title);

/** The application form's anchor: "Відгукнутися" scrolls there. */
export const JOB_APPLICATION_FORM_ID = 'job-application';

/** The query parameter that tells the application form which vacancy to preselect (a vacancy id). */
export const APPLY_POSITION_PARAM = 'position';

/**
 * Where a vacancy's "Відгукнутися" leads: the home page with that vacancy named in the address and
 * the application form as the target. The address is the message between the two remotes (the
 * home's vacancies and the forms' application form), so it also works when shared or reloaded.
 */
export function applyForVacancyPath(vacancy: Pick<Vacancy, 'id'>): string {
  return `/?${APPLY_POSITION_PARAM}=${encodeURIComponent(vacancy.id)}#${JOB_APPLICATION_FORM_ID}`;
}

/** The vacancy an address's search string (`?position=sales-manager`) asks to apply for, if any. */
export function vacancyFromSearch(search: string): Vacancy | undefined {
  const id = new URLSearchParams(search).get(APPLY_POSITION_PARAM);
  return VACANCIES.find((vacancy) => vacancy.id === id);
}
