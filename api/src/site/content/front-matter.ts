import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Value, ValueErrorType } from '@sinclair/typebox/value';
import { ARTICLE_LIMITS, SLUG_PATTERN } from '@agency/shared/contracts';
import { parseDocument } from 'yaml';

/**
 * The front matter of an article file: the block between `---` lines at its top, in YAML.
 */

/** `2026-01-20`, or a full ISO 8601 time with its zone: `2026-01-20T09:30:00Z`, `…+02:00`. */
const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}(?:T\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?(?:Z|[+-]\\d{2}:\\d{2}))?$';

/** Each field with the rule an author reads when it is broken. */
const text = (maxLength: number) =>
  Type.String({ minLength: 1, maxLength, rule: `непорожній текст до ${maxLength} символів` });

export const ArticleFrontMatterSchema = Type.Object(
  {
    title: text(ARTICLE_LIMITS.title),
    slug: Type.String({
      pattern: SLUG_PATTERN,
      maxLength: ARTICLE_LIMITS.slug,
      rule: `малі латинські літери, цифри й дефіси, до ${ARTICLE_LIMITS.slug} символів (адреса статті)`,
    }),
    category: text(ARTICLE_LIMITS.category),
    author: text(ARTICLE_LIMITS.author),
    date: Type.String({ pattern: DATE_PATTERN, rule: 'дата РРРР-ММ-ДД або РРРР-ММ-ДДTгг:хх:ссZ' }),
    excerpt: text(ARTICLE_LIMITS.excerpt),
    cover: Type.String({ minLength: 1, maxLength: ARTICLE_LIMITS.cover, rule: 'шлях до зображення відносно файлу статті' }),
    draft: Type.Optional(Type.Boolean({ rule: 'true або false' })),
  },
  { additionalProperties: false },
);

export type ArticleFrontMatter = Static<typeof ArticleFrontMatterSchema>;

/** A problem with one field of one file, said so that an author can fix it. */
export class ArticleError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'ArticleError';
  }
}

const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** Splits a file into its front matter (YAML text) and its Markdown body. */
export function splitFrontMatter(source: string): { yaml: string; body: string } {
  const match = FRONT_MATTER.exec(source);
  if (!match) throw new ArticleError('front matter', 'файл має починатися блоком властивостей між рядками «---»');
  return { yaml: match[1]!, body: source.slice(match[0].length) };
}

function ruleOf(schema: TSchema | undefined): string {
  return (schema as { rule?: string } | undefined)?.rule ?? '';
}

/**
 * Reads and checks the front matter. YAML's 1.2 core schema keeps dates as the text written
 * (no time-zone guessing). Throws an ArticleError naming the first broken field.
 */
export function parseFrontMatter(yamlText: string): ArticleFrontMatter {
  const document = parseDocument(yamlText, { schema: 'core', uniqueKeys: true });
  const yamlError = document.errors[0];
  if (yamlError) {
    throw new ArticleError('front matter', `некоректний YAML: ${yamlError.message.split('\n')[0]}`);
  }
  const data: unknown = document.toJS();
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new ArticleError('front matter', 'очікуються властивості «назва: значення»');
  }
  const error = Value.Errors(ArticleFrontMatterSchema, data).First();
  if (error) {
    const field = error.path.replace(/^\//, '');
    if (error.type === ValueErrorType.ObjectAdditionalProperties) {
      const unknown = Object.keys(data).find((key) => !(key in ArticleFrontMatterSchema.properties)) ?? field;
      throw new ArticleError(unknown, `невідоме поле «${unknown}» (можливі: ${Object.keys(ArticleFrontMatterSchema.properties).join(', ')})`);
    }
    if (error.type === ValueErrorType.ObjectRequiredProperty) {
      throw new ArticleError(field, `бракує поля «${field}»`);
    }
    const schema = ArticleFrontMatterSchema.properties[field as keyof ArticleFrontMatter];
    throw new ArticleError(field, `поле «${field}»: потрібно ${ruleOf(schema)}`);
  }
  const frontMatter = data as ArticleFrontMatter;
  if (Number.isNaN(articleDate(frontMatter.date).getTime())) {
    throw new ArticleError('date', `поле «date»: такої дати немає (${frontMatter.date})`);
  }
  return frontMatter;
}

/**
 * The post's date. A bare day means 09:00 Kyiv time, a morning publication (the site shows
 * dates in Kyiv), so the day shown is the day written wherever the server runs.
 */
export function articleDate(date: string): Date {
  if (date.includes('T')) return new Date(date);
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const utcGuess = new Date(Date.UTC(year, month - 1, day, 9, 0, 0));
  if (utcGuess.getUTCDate() !== day) return new Date(NaN);
  // Kyiv is UTC+2 in winter and UTC+3 in summer: take the offset from the zone database.
  const kyivHour = Number(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Kyiv', hour: '2-digit', hourCycle: 'h23' }).format(utcGuess));
  return new Date(utcGuess.getTime() - (kyivHour - 9) * 3_600_000);
}
