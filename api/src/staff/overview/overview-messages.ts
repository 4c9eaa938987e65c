import { SITE_ANALYTICS_LIMITS } from '@agency/shared';

/** What the dashboard's API says when it refuses a request. */
export const OVERVIEW_MESSAGES = {
  rangeDates: 'Для періоду вкажіть дати «з» і «по» у форматі РРРР-ММ-ДД.',
  rangeBackwards: 'Дата «по» не може бути раніше за дату «з».',
  rangeTooLong: `Період може охоплювати не більше ${SITE_ANALYTICS_LIMITS.rangeDaysMax} днів.`,
  weeklyReportAdminsOnly: 'Щотижневий звіт можуть отримувати лише адміністратори.',
} as const;
