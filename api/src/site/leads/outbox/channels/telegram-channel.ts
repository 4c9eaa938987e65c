import { ALERT_CHANNEL } from '@agency/shared';
import type { TelegramConfig } from '../../../../platform/config/leads';
import { clip, leadText, TELEGRAM_TEXT_MAX } from '../../lead/lead-text';
import { DeliveryError, type LeadChannel } from './lead-channel';

interface BotApiAnswer {
  ok?: boolean;
  description?: string;
  parameters?: { retry_after?: number };
}

/**
 * Sends each lead as a readable message to a Telegram chat through the Bot API's sendMessage, and
 * (as the `alert` channel: one row per lead) the alert that a lead waits past the response target.
 */
export function telegramChannels(config: TelegramConfig): LeadChannel[] {
  const endpoint = `${config.apiUrl}/bot${config.botToken}/sendMessage`;
  // The token is part of the URL: keep it out of every error that may be logged or stored.
  const redact = (text: string) => text.split(config.botToken).join('<token>');
  async function send(chatId: string, text: string, signal: AbortSignal): Promise<void> {
    let response: Response;
    try {
      response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8' },
        // Plain text (no parse_mode): nothing a visitor types can break the markup.
        body: JSON.stringify({
          chat_id: chatId,
          text: clip(text, TELEGRAM_TEXT_MAX),
          link_preview_options: { is_disabled: true },
        }),
        signal,
        redirect: 'manual',
      });
    } catch (error) {
      throw new DeliveryError(redact(`telegram: ${error instanceof Error ? error.message : String(error)}`));
    }
    const answer = (await response.json().catch(() => ({}))) as BotApiAnswer;
    if (!response.ok || answer.ok !== true) {
      const retryAfter = answer.parameters?.retry_after;
      throw new DeliveryError(
        redact(`telegram answered ${response.status}${answer.description ? `: ${answer.description}` : ''}`),
        retryAfter === undefined ? undefined : retryAfter * 1000,
      );
    }
  }
  return [
    { name: 'telegram', deliver: (lead, signal) => send(config.chatId, leadText(lead).text, signal) },
    {
      // An overdue alert goes to the assignee's own chat when they have one, else to the team's.
      name: ALERT_CHANNEL,
      async deliverNotice(notice, signal) {
        if (notice.event !== 'lead.overdue') throw new Error(`the alert channel cannot deliver ${notice.event}`);
        await send(notice.chat_id ?? config.chatId, notice.text, signal);
      },
    },
  ];
}
