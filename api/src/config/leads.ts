type Env = Record<string, string | undefined>;

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

function value(env: Env, name: string): string | undefined {
  const trimmed = env[name]?.trim();
  return trimmed ? trimmed : undefined;
}

function httpUrl(text: string, name: string): string {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new Error(`${name} must be an http(s) URL, got "${text}"`);
  }
  return url.toString();
}

/** Both or neither: one without the other is a typo that would silently drop every lead. */
function pair(env: Env, first: string, second: string): [string, string] | undefined {
  const a = value(env, first);
  const b = value(env, second);
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
  const config: LeadsConfig = {};

  const webhookUrl = value(env, 'LEADS_WEBHOOK_URL');
  const secret = value(env, 'LEADS_WEBHOOK_SECRET');
  if (webhookUrl) config.webhook = { url: httpUrl(webhookUrl, 'LEADS_WEBHOOK_URL'), secret };
  else if (secret) throw new Error('LEADS_WEBHOOK_SECRET is set but LEADS_WEBHOOK_URL is not');

  const telegram = pair(env, 'TELEGRAM_BOT_TOKEN', 'TELEGRAM_CHAT_ID');
  if (telegram) {
    const apiUrl = httpUrl(value(env, 'TELEGRAM_API_URL') ?? TELEGRAM_API_URL, 'TELEGRAM_API_URL').replace(/\/+$/, '');
    config.telegram = { botToken: telegram[0], chatId: telegram[1], apiUrl };
  }

  const email = pair(env, 'SMTP_URL', 'LEADS_EMAIL_TO');
  if (email) {
    const [smtpUrl, to] = email;
    if (!/^smtps?:\/\//i.test(smtpUrl) || !URL.canParse(smtpUrl)) {
      throw new Error('SMTP_URL must look like smtp://user:password@host:587 or smtps://…');
    }
    config.email = { smtpUrl, to, from: value(env, 'LEADS_EMAIL_FROM') ?? firstAddress(to) };
  }
  return config;
}

/** Names of the configured channels, in a fixed order. */
export function enabledChannels(config: LeadsConfig): ChannelName[] {
  return CHANNEL_NAMES.filter((name) => config[name] !== undefined);
}
