import { JOB_APPLICATION_FORM_ID } from '../contracts/vacancies';
import { FORM_TOKEN_FIELD } from '../contracts/spam-constants';
import type { FormName } from './form-results';

/**
 * How a page's forms get their form tokens when scripts are off: each form carries this attribute
 * with its name, and the server adds one hidden token field per form at the very end of the page,
 * tied to the form by the form's id (the `form` attribute), fresh for every response, while the
 * page before it stays the same for everyone (and compressed once).
 */
export const FORM_TOKEN_ATTRIBUTE = 'data-form-token';

/** Each form's element id. */
export const FORM_ELEMENT_IDS: Record<FormName, string> = {
  contact: 'contact-form',
  'job-application': JOB_APPLICATION_FORM_ID,
};

/** The hidden field the server adds at the end of a page for `form`. Tokens hold only [A-Za-z0-9._-]. */
export function formTokenField(form: FormName, token: string): string {
  return `<input type="hidden" form="${FORM_ELEMENT_IDS[form]}" name="${FORM_TOKEN_FIELD}" value="${token}">`;
}

/** The forms a page's markup holds, by their attribute. */
export function formsInMarkup(html: string): FormName[] {
  const found = new Set<FormName>();
  for (const match of html.matchAll(new RegExp(`${FORM_TOKEN_ATTRIBUTE}="([a-z-]+)"`, 'g'))) {
    const form = match[1] as FormName;
    if (form in FORM_ELEMENT_IDS) found.add(form);
  }
  return [...found];
}
