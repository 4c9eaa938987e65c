import { BRAND, NOT_SET, SERVICE_TYPES, trafficSource, type Attribution } from '@agency/shared';
import { flattenLineBreaks } from '@agency/shared/contracts';
import type { LeadPayload, SubmittedLead } from './lead-payload';

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

type Field = [string, string | null | undefined];

export function kyivTime(iso: string): string {
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
function lines(fields: readonly Field[]): string {
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

/** What the visitor sent: labelled fields, then their own words (a message, a résumé) if any. */
function submittedParts(lead: SubmittedLead): { fields: Field[]; words?: string } {
  if (lead.kind === 'contact') {
    const m = lead.submission;
    const fields: Field[] = [
      ['Імʼя', m.name],
      ['Email', m.email],
      ['Телефон', m.phone],
      ['Компанія', m.company],
      ['Послуга', m.service_type && serviceLabel(m.service_type)],
    ];
    return { fields, words: `Повідомлення:\n${m.message}` };
  }
  const a = lead.submission;
  const fields: Field[] = [
    ['Посада', a.position],
    ['Імʼя', a.name],
    ['Email', a.email],
    ['Телефон', a.phone],
    ['Місто', a.city],
  ];
  return { fields, words: a.resume_text ? `Про себе:\n${a.resume_text}` : undefined };
}

/** What the visitor sent, as plain text (their reply quotes it). */
export function submittedText(lead: SubmittedLead): string {
  const { fields, words } = submittedParts(lead);
  return [lines(fields), words].filter(Boolean).join('\n\n');
}

/** «Повторне звернення» and the person's earlier lead, for a person who wrote before. */
function repeatLine(lead: LeadPayload): string {
  const earlier = lead.person?.earlier;
  if (!earlier) return '';
  return `Повторне звернення: ${lead.person!.leads}-е від цієї людини (попереднє №${earlier.id}, ${kyivTime(earlier.received_at)})\n\n`;
}

/** A readable Ukrainian notification of one lead, the same for Telegram and e-mail. */
export function leadText(lead: LeadPayload): LeadText {
  const { fields, words } = submittedParts(lead);
  const head = lines([
    ...fields,
    ['Отримано', kyivTime(lead.created_at)],
    ['Сторінка', lead.kind === 'contact' ? lead.referrer : undefined],
    ...attributionLines(lead.attribution),
    ['Відповідальний', lead.assignee?.email],
  ]);
  const body = `${repeatLine(lead)}${head}${words ? `\n\n${words}` : ''}`;
  const repeat = lead.person?.earlier ? 'Повторне звернення. ' : '';
  const name = flattenLineBreaks(lead.submission.name);
  if (lead.kind === 'contact') {
    return {
      subject: `${repeat}Нова заявка з сайту «${BRAND.name}» №${lead.id}: ${name}`,
      text: `Нова заявка з сайту «${BRAND.name}» №${lead.id}\n\n${body}`,
    };
  }
  return {
    subject: `${repeat}Відгук на вакансію «${lead.submission.position}» №${lead.id}: ${name}`,
    text: `Відгук на вакансію №${lead.id}\n\n${body}`,
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
