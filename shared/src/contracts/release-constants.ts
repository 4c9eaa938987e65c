/**
 * The vocabulary of release decisions and release health, shared by the API (the release
 * commands, `--status`, the canary's judge) and the console's «Релізи», which shows it in
 * Ukrainian. Plain values (no TypeBox), so browser bundles may import them.
 */

/** What happened to a release on its way to visitors, as `--status` and «Релізи» list it. */
export const DELIVERY_ACTIONS = ['published', 'staged', 'canary', 'promoted', 'rolled_back', 'aborted', 'pruned'] as const;
export type DeliveryAction = (typeof DELIVERY_ACTIONS)[number];

export const DELIVERY_ACTION_LABELS: Record<DeliveryAction, string> = {
  published: 'опубліковано',
  staged: 'підготовлено для перегляду',
  canary: 'канарка',
  promoted: 'зроблено поточним',
  rolled_back: 'відкочено',
  aborted: 'канарку скасовано',
  pruned: 'видалено як застарілий',
};

/** The evidence release health counts distinct clients of, while a canary judges a release. */
export const CLIENT_EVIDENCE = ['served', 'error', 'load_failure', 'vitals'] as const;
export type ClientEvidence = (typeof CLIENT_EVIDENCE)[number];

/** What release health says the site will do with a canary's candidate. */
export const VERDICT_ACTIONS = ['roll_back', 'promote', 'hold', 'wait'] as const;
export type VerdictAction = (typeof VERDICT_ACTIONS)[number];

export const VERDICT_LABELS: Record<VerdictAction, string> = {
  roll_back: 'Сайт відкотить кандидата',
  promote: 'Сайт зробить кандидата поточним',
  hold: 'Сайт притримає просування кандидата',
  wait: 'Сайт чекає на більше даних',
};
