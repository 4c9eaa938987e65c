/**
 * The spam defence's vocabulary, written once: the forms send these fields, the API judges with
 * these reasons and limits, the console shows them. Plain values (no TypeBox), so browser bundles
 * may import them.
 */

/** The signed form token the server puts into each form it sends: when and for which form. */
export const FORM_TOKEN_FIELD = 'form_token';

/** The forms' scripts send their solved proof-of-work challenge (an ALTCHA payload) in this field. */
export const PROOF_OF_WORK_FIELD = 'proof';

/**
 * The User Timing measure a form's script records when its proof-of-work is solved: from the
 * challenge's arrival to the solution, the solver's chunk load included (what the benchmark reads).
 */
export const PROOF_OF_WORK_MEASURE = 'form-proof-of-work';

export const SPAM_FIELD_LIMITS = {
  /** A form token's length, in characters. */
  formToken: 200,
  /** A proof-of-work payload's length, in characters. */
  proof: 4000,
} as const;

/** What the defence holds a submission for; each with its weight and the words staff read. */
export const SPAM_REASONS = [
  'no-token',
  'forged-token',
  'wrong-form',
  'reused-token',
  'too-fast',
  'hurried',
  'stale-token',
  'old-token',
  'no-proof',
  'bad-proof',
  'links',
  'many-links',
  'url-only',
  'markup-links',
  'unexpected-language',
  'unexpected-script',
  'spam-phrase',
  'disposable-email',
  'same-message',
  'address-rate',
  'email-rate',
  'phone-rate',
] as const;
export type SpamReasonCode = (typeof SPAM_REASONS)[number];

export const SPAM_REASON_LABELS: Record<SpamReasonCode, string> = {
  'no-token': 'Без токена форми',
  'forged-token': 'Підроблений токен форми',
  'wrong-form': 'Токен іншої форми',
  'reused-token': 'Токен форми вже використано',
  'too-fast': 'Надіслано за лічені секунди після відкриття сторінки',
  hurried: 'Заповнено швидше, ніж зазвичай пише людина',
  'stale-token': 'Сторінку відкрито понад добу тому',
  'old-token': 'Сторінку відкрито кілька годин тому',
  'no-proof': 'Без перевірки браузера (proof-of-work)',
  'bad-proof': 'Хибна перевірка браузера (proof-of-work)',
  links: 'Посилання на два чужі сайти',
  'many-links': 'Посилання на три й більше чужих сайтів',
  'url-only': 'Повідомлення — лише посилання',
  'markup-links': 'Посилання у розмітці (HTML чи BBCode)',
  'unexpected-language': 'Мова, якою до нас не пишуть',
  'unexpected-script': 'Письмо, яким до нас не пишуть',
  'spam-phrase': 'Фраза зі списку спаму',
  'disposable-email': 'Одноразова електронна пошта',
  'same-message': 'Той самий текст з різних адрес',
  'address-rate': 'Забагато заявок з однієї IP-адреси',
  'email-rate': 'Забагато заявок з однієї пошти',
  'phone-rate': 'Забагато заявок з одного телефону',
};

/** The settings admins tune in the console, and their bounds. */
export const SPAM_SETTINGS_LIMITS = {
  thresholdMin: 1,
  thresholdMax: 100,
  phrasesMax: 300,
  phraseMaxLength: 120,
} as const;
