/**
 * The console's articles: their states, who owns them, what a revision records, and the
 * editor's rhythm. Plain values, so browser bundles may import them.
 */

/** Where an article is: never published, waiting for its time, on the site, or taken off it. */
export const ARTICLE_STATES = ['draft', 'scheduled', 'published', 'unpublished'] as const;
export type ArticleState = (typeof ARTICLE_STATES)[number];

export const ARTICLE_STATE_LABELS: Record<ArticleState, string> = {
  draft: 'Чернетка',
  scheduled: 'Заплановано',
  published: 'Опубліковано',
  unpublished: 'Знято з публікації',
};

/** Who writes an article: the content folder (a Markdown file in git) or the console. */
export const ARTICLE_OWNERS = ['files', 'console'] as const;
export type ArticleOwner = (typeof ARTICLE_OWNERS)[number];

/** What made a revision. */
export const ARTICLE_REVISION_KINDS = ['created', 'saved', 'autosaved', 'restored', 'taken-over'] as const;
export type ArticleRevisionKind = (typeof ARTICLE_REVISION_KINDS)[number];

export const ARTICLE_REVISION_KIND_LABELS: Record<ArticleRevisionKind, string> = {
  created: 'Створено',
  saved: 'Збережено',
  autosaved: 'Автозбереження',
  restored: 'Відновлено',
  'taken-over': 'Перенесено з файлу',
};

export const ARTICLE_EDITING = {
  /** The editor saves a changed draft this long after the last keystroke, in seconds. */
  autosaveSeconds: 3,
  /** Autosaves by one person within this many minutes of their last one amend that revision. */
  autosaveRevisionMinutes: 10,
} as const;

/** Images an editor uploads (covers, inline pictures): checked by their content, not their name. */
export const IMAGE_UPLOAD = {
  /** Largest file accepted, in bytes (10 MiB). */
  maxBytes: 10 * 1024 * 1024,
  /** What the file must be, as sharp names the formats. */
  formats: ['jpeg', 'png', 'webp'],
  /** What the console's file picker offers. */
  mimeTypes: ['image/jpeg', 'image/png', 'image/webp'],
} as const;
