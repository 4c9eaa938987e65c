/**
 * The modules each remote exposes, and the props the shell passes them. Both sides compile
 * against this file (the build runs with `dts: false`), so it is the federation contract.
 */
export const EXPOSED_MODULES = {
  home: ['Hero', 'About', 'Services', 'Reasons', 'Team', 'Vacancies', 'ContactDetails'],
  blog: ['BlogTeaser', 'BlogPostPage'],
  forms: ['JobApplicationForm', 'ContactForm'],
} as const;

export interface BlogPostPageProps {
  postId: string;
}

/** Props every other exposed component takes: none. */
export type NoProps = Record<string, never>;
