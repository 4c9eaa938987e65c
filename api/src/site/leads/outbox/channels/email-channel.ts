import type nodemailer from 'nodemailer';
import type { EmailConfig } from '../../../../platform/config/leads';
import { leadText } from '../../lead/lead-text';
import type { LeadChannel } from './lead-channel';

/** SMTP waits: a dead mail server fails the attempt instead of holding the worker. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

function domainOf(address: string): string {
  return /@([^@>\s]+)>?\s*$/.exec(address)?.[1] ?? 'localhost';
}

/** E-mails each lead to LEADS_EMAIL_TO through SMTP_URL; a reply goes straight to the visitor. */
export function emailChannel(config: EmailConfig): LeadChannel {
  // Loaded when e-mail is configured (SMTP_URL), not by every process that never sends one.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- synchronously, as the channel is made
  const mailer: typeof nodemailer = require('nodemailer');
  const transport = mailer.createTransport({ url: config.smtpUrl, ...SMTP_TIMEOUTS });
  return {
    name: 'email',
    async deliver(lead, signal) {
      const { subject, text } = leadText(lead);
      const sending = transport.sendMail({
        from: config.from,
        to: config.to,
        replyTo: lead.submission.email,
        subject,
        text,
        // One Message-ID per lead: a mail client shows a repeated delivery as one message.
        messageId: `<${lead.idempotency_key}@${domainOf(config.from)}>`,
        headers: { 'X-Idempotency-Key': lead.idempotency_key },
      });
      // nodemailer takes no AbortSignal; at shutdown the attempt is given up (and retried later).
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        sending.then(
          () => resolve(),
          (error: unknown) => reject(error instanceof Error ? error : new Error(String(error))),
        ).finally(() => signal.removeEventListener('abort', onAbort));
      });
    },
    close: () => transport.close(),
  };
}
