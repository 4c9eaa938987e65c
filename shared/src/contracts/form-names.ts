/** The site's forms, by the name their routes, result pages and form tokens use. Plain values. */
export const FORM_NAMES = ['contact', 'job-application'] as const;
export type FormName = (typeof FORM_NAMES)[number];
