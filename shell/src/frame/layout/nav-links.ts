import { SECTION_IDS } from '@agency/shared';

/** In-page navigation of the header, in the order the sections appear. */
export const NAV_LINKS = [
  { sectionId: SECTION_IDS.about, label: 'Про нас' },
  { sectionId: SECTION_IDS.services, label: 'Послуги' },
  { sectionId: SECTION_IDS.team, label: 'Команда' },
  { sectionId: SECTION_IDS.vacancies, label: 'Вакансії' },
  { sectionId: SECTION_IDS.blog, label: 'Блог' },
  { sectionId: SECTION_IDS.contact, label: 'Контакти' },
] as const;
