import { JOB_APPLICATION_FORM_ID, SECTION_IDS } from '@agency/shared';

/**
 * Anchors that live in a remote's markup, by the home section whose slot holds them (the shell
 * composes the page, so it knows). A link to one on a fresh page load reaches the section first.
 */
export const ANCHOR_SECTIONS: Readonly<Record<string, string>> = {
  [JOB_APPLICATION_FORM_ID]: SECTION_IDS.vacancies,
};
