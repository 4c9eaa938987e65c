import type { ChannelName, LeadsConfig } from '../../../../platform/config/leads';
import { emailChannel } from './email-channel';
import type { LeadChannel } from './lead-channel';
import { telegramChannel } from './telegram-channel';
import { webhookChannel } from './webhook-channel';

export type { LeadChannel } from './lead-channel';

/** One channel for each one configured. */
export function createChannels(config: LeadsConfig): LeadChannel[] {
  const channels: LeadChannel[] = [];
  if (config.webhook) channels.push(webhookChannel(config.webhook));
  if (config.telegram) channels.push(telegramChannel(config.telegram));
  if (config.email) channels.push(emailChannel(config.email));
  return channels;
}

/** The names of the channels configured: what a lead is queued for. */
export function channelNames(config: LeadsConfig): ChannelName[] {
  return createChannels(config).map((channel) => channel.name);
}
