import { BRAND, NOT_SET, SERVICE_TYPES, trafficSource, type Attribution } from '@agency/shared';
import { flattenLineBreaks } from '@agency/shared/contracts';
import type { LeadPayload } from './lead-payload';

/** Telegram refuses messages longer than this many characters. */
export const TELEGRAM_TEXT_MAX = 4096;

export interface LeadText {
  subject: string;
  /** Plain text: labelled fields, then the visitor's own words. */
  text: string;
}

function serviceLabel(value: string): string {
  return SERVICE_TYPES.find((type) => type.value === value)?.label ?? value;
}

function kyivTime(iso: string): string {
  return new Intl.DateTimeFormat('uk-UA', {
    timeZone: 'Europe/Kyiv',
    dateStyle: 'long',
    timeStyle: 'short',
  }).format(new Date(iso));
}

/**
 * One line per field that has a value. A value is put on one line whatever it holds (the API
 * stores one-line fields so, but a lead stored before, or a header, may hold a break), so no
 * value can start a line that reads as another field.
 */
function lines(fields: readonly [string, string | null | undefined][]): string {
  return fields
    .filter(([, value]) => value !== undefined && value !== null && value !== '')
    .map(([label, value]) => `${label}: ${flattenLineBreaks(value!)}`)
    .join('\n');
}

/**
 * Where the visitor came from, as the agency's people read it first: «facebook / cpc / black-friday»
 * (a part the visit did not say is left out), the campaign's keyword and ad, and the first page.
 */
function attributionLines(attribution: Attribution | null | undefined): [string, string | undefined][] {
  if (!attribution) return [];
  const { source, medium, campaign } = trafficSource(attribution);
  return [
    ['Джерело', [source, medium, campaign].filter((part) => part !== NOT_SET).join(' / ')],
    ['Ключове слово', attribution.utm_term],
    ['Оголошення', attribution.utm_content],
    ['Перша сторінка', attribution.landing_path],
  ];
}

/** A readable Ukrainian notification of one lead, the same for Telegram and e-mail. */
export function leadText(lead: LeadPayload): LeadText {
  const received = kyivTime(lead.created_at);
  if (lead.kind === 'contact') {
    const m = lead.submission;
    const head = lines([
      ['Імʼя', m.name],
      ['Email', m.email],
      ['Телефон', m.phone],
      ['Компанія', m.company],
      ['Послуга', m.service_type && serviceLabel(m.service_type)],
      ['Отримано', received],
      ['Сторінка', lead.referrer],
      ...attributionLines(lead.attribution),
    ]);
    return {
      subject: `Нова заявка з сайту «${BRAND.name}» №${lead.id}: ${flattenLineBreaks(m.name)}`,
      text: `Нова заявка з сайту «${BRAND.name}» №${lead.id}\n\n${head}\n\nПовідомлення:\n${m.message}`,
    };
  }
  const a = lead.submission;
  const head = lines([
    ['Посада', a.position],
    ['Імʼя', a.name],
    ['Email', a.email],
    ['Телефон', a.phone],
    ['Місто', a.city],
    ['Отримано', received],
    ...attributionLines(lead.attribution),
  ]);
  const about = a.resume_text ? `\n\nПро себе:\n${a.resume_text}` : '';
  return {
    subject: `Відгук на вакансію «${a.position}» №${lead.id}: ${flattenLineBreaks(a.name)}`,
    text: `Відгук на вакансію №${lead.id}\n\n${head}${about}`,
  };
}

/**
 * Cuts text to `max` UTF-16 units (how Telegram counts), ending with an ellipsis when cut and
 * never splitting a surrogate pair.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  return `${/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut}…`;
}
