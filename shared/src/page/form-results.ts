import { BRAND, SECTION_IDS } from '../constants/brand';
import { TOAST_MESSAGES } from '../constants/toasts';
import type { FormName } from '../contracts/form-names';
import type { PageMeta } from './page-meta';

export type { FormName };

/**
 * Forms without a script: the pages a form posted that way lands on (the API answers its post with a redirect
 * here, so reloading the page never sends the form again). They say what the toasts say.
 */
export const FORM_RESULT_ROUTE = '/forms/:form/:outcome';

export type FormOutcome = 'sent' | 'not-sent';

interface FormResultTexts {
  sent: string;
  notSent: string;
  /** Where the visitor goes back to the form (its section on the home page). */
  backTo: string;
}

/** Each form by the name its result pages use. */
export const FORM_RESULTS = {
  contact: { sent: TOAST_MESSAGES.contactSuccess, notSent: TOAST_MESSAGES.contactError, backTo: `/#${SECTION_IDS.contact}` },
  'job-application': { sent: TOAST_MESSAGES.applicationSuccess, notSent: TOAST_MESSAGES.applicationError, backTo: `/#${SECTION_IDS.vacancies}` },
} as const satisfies Record<FormName, FormResultTexts>;

/**
 * Where each form posts itself when no script runs (urlencoded, as any HTML form does): the API
 * stores it as the JSON routes do and redirects to its result page.
 */
export const FORM_POST_PATHS: Record<FormName, string> = {
  contact: '/api/forms/contact',
  'job-application': '/api/forms/job-application',
};

export function formResultPath(form: FormName, outcome: FormOutcome): string {
  return `/forms/${form}/${outcome}`;
}

/** The form and outcome a result page's parameters name, or undefined for any other address. */
export function readFormResult(form: string | undefined, outcome: string | undefined): { form: FormName; outcome: FormOutcome } | undefined {
  if (form === undefined || !Object.hasOwn(FORM_RESULTS, form)) return undefined;
  if (outcome !== 'sent' && outcome !== 'not-sent') return undefined;
  return { form: form as FormName, outcome };
}

/**
 * Said beside a form's button when the page's script for it could not load: the form still posts
 * itself, as with no script at all.
 */
export const FORM_WITHOUT_SCRIPT_NOTE = 'Частина сторінки не завантажилася, але форму можна надіслати: відповідь відкриється на окремій сторінці.';

/** What a result page says after its heading when the form was not sent. */
export const FORM_NOT_SENT_HINT = `Поверніться до форми, перевірте поля й надішліть ще раз або напишіть нам на ${BRAND.email}.`;

export function formResultPageMeta(form: FormName, outcome: FormOutcome): PageMeta {
  const texts = FORM_RESULTS[form];
  return {
    title: `${outcome === 'sent' ? texts.sent : texts.notSent} — ${BRAND.name}`,
    description: outcome === 'sent' ? texts.sent : FORM_NOT_SENT_HINT,
    path: formResultPath(form, outcome),
    type: 'website',
    noindex: true,
  };
}
