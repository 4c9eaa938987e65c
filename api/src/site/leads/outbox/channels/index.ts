import { enabledChannels, type ChannelName, type LeadsConfig } from '../../../../platform/config/leads';
import { emailChannel, replyChannel, reportChannel } from './email-channel';
import type { LeadChannel } from './lead-channel';
import { telegramChannels } from './telegram-channel';
import { webhookChannel } from './webhook-channel';

export type { LeadChannel } from './lead-channel';

/** One channel for each one configured; Telegram's brings the overdue alerts' and e-mail's the visitor's reply's and the weekly report's. */
export function createChannels(config: LeadsConfig): LeadChannel[] {
  const channels: LeadChannel[] = [];
  if (config.webhook) channels.push(webhookChannel(config.webhook));
  if (config.telegram) channels.push(...telegramChannels(config.telegram));
  if (config.email) channels.push(emailChannel(config.email), replyChannel(config.email), reportChannel(config.email));
  return channels;
}

/** The names of the agency's channels configured: what a lead is queued for. */
export function channelNames(config: LeadsConfig): ChannelName[] {
  return enabledChannels(config);
}
