import { Type, type StaticDecode } from '@sinclair/typebox';
import { invalid, optionalText, readEnv, variable, type Env } from './env';

/** The channels a lead can be sent through; each is on when its environment variables are set. */
export const CHANNEL_NAMES = ['webhook', 'telegram', 'email'] as const;
export type ChannelName = (typeof CHANNEL_NAMES)[number];

export interface WebhookConfig {
  url: string;
  /** Signs each body (HMAC-SHA256, `X-Signature`) when set. */
  secret?: string;
}

export interface TelegramConfig {
  botToken: string;
  chatId: string;
  /** The Bot API's base URL; tests point it at a local server. */
  apiUrl: string;
}

export interface EmailConfig {
  smtpUrl: string;
  to: string;
  from: string;
}

export interface LeadsConfig {
  webhook?: WebhookConfig;
  telegram?: TelegramConfig;
  email?: EmailConfig;
}

export const TELEGRAM_API_URL = 'https://api.telegram.org';

function httpUrl(text: string): string {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) invalid(`must be an http(s) URL, got "${text}"`);
  return url.toString();
}

export const LeadsEnv = Type.Object({
  LEADS_WEBHOOK_URL: variable((value) => (value.trim() ? httpUrl(value.trim()) : undefined)),
  LEADS_WEBHOOK_SECRET: optionalText(),
  TELEGRAM_BOT_TOKEN: optionalText(),
  TELEGRAM_CHAT_ID: optionalText(),
  TELEGRAM_API_URL: variable((value) => httpUrl(value.trim() || TELEGRAM_API_URL).replace(/\/+$/, '')),
  SMTP_URL: variable((value) => {
    const url = value.trim();
    if (!url) return undefined;
    if (!/^smtps?:\/\//i.test(url) || !URL.canParse(url)) invalid('must look like smtp://user:password@host:587 or smtps://…');
    return url;
  }),
  LEADS_EMAIL_TO: optionalText(),
  LEADS_EMAIL_FROM: optionalText(),
});

type LeadsVars = StaticDecode<typeof LeadsEnv>;

/** Both or neither: one without the other is a typo that would silently drop every lead. */
function pair(vars: LeadsVars, first: keyof LeadsVars, second: keyof LeadsVars): [string, string] | undefined {
  const a = vars[first];
  const b = vars[second];
  if (!a && !b) return undefined;
  if (!a || !b) throw new Error(`${a ? second : first} must be set together with ${a ? first : second}`);
  return [a, b];
}

/** A bare address from `Name <addr>` or `addr`, for the default sender. */
function firstAddress(list: string): string {
  const first = list.split(',')[0]!.trim();
  return /<([^>]+)>/.exec(first)?.[1] ?? first;
}

/**
 * Lead notification channels from the environment, checked at start: a misspelt setting fails
 * the start instead of losing notifications at run time.
 */
export function loadLeadsConfig(env: Env = process.env): LeadsConfig {
  const vars = readEnv(LeadsEnv, env);
  const config: LeadsConfig = {};

  if (vars.LEADS_WEBHOOK_URL) config.webhook = { url: vars.LEADS_WEBHOOK_URL, secret: vars.LEADS_WEBHOOK_SECRET };
  else if (vars.LEADS_WEBHOOK_SECRET) throw new Error('LEADS_WEBHOOK_SECRET is set but LEADS_WEBHOOK_URL is not');

  const telegram = pair(vars, 'TELEGRAM_BOT_TOKEN', 'TELEGRAM_CHAT_ID');
  if (telegram) config.telegram = { botToken: telegram[0], chatId: telegram[1], apiUrl: vars.TELEGRAM_API_URL };

  const email = pair(vars, 'SMTP_URL', 'LEADS_EMAIL_TO');
  if (email) {
    const [smtpUrl, to] = email;
    config.email = { smtpUrl, to, from: vars.LEADS_EMAIL_FROM ?? firstAddress(to) };
  }
  return config;
}

/** Names of the configured channels, in a fixed order. */
export function enabledChannels(config: LeadsConfig): ChannelName[] {
  return CHANNEL_NAMES.filter((name) => config[name] !== undefined);
}
