import type nodemailer from 'nodemailer';
import type { EmailConfig } from '../../../../platform/config/leads';
import { REPLY_CHANNEL } from '@agency/shared';
import { leadText } from '../../lead/lead-text';
import { REPORT_CHANNEL, type LeadChannel } from './lead-channel';

/** SMTP waits: a dead mail server fails the attempt instead of holding the worker. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

function domainOf(address: string): string {
  return /@([^@>\s]+)>?\s*$/.exec(address)?.[1] ?? 'localhost';
}

interface Mail {
  to: string;
  /** Where an answer goes; the sender (LEADS_EMAIL_FROM) when absent. */
  replyTo?: string;
  subject: string;
  text: string;
  /** The same on every delivery: a mail client shows a repeated delivery as one message. */
  idempotencyKey: string;
}

/** Sends mail through SMTP_URL from LEADS_EMAIL_FROM, one transport per channel. */
function smtpSender(config: EmailConfig) {
  // Loaded when e-mail is configured (SMTP_URL), not by every process that never sends one.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- synchronously, as the channel is made
  const mailer: typeof nodemailer = require('nodemailer');
  const transport = mailer.createTransport({ url: config.smtpUrl, ...SMTP_TIMEOUTS });
  return {
    async send(mail: Mail, signal: AbortSignal): Promise<void> {
      const sending = transport.sendMail({
        from: config.from,
        to: mail.to,
        replyTo: mail.replyTo,
        subject: mail.subject,
        text: mail.text,
        messageId: `<${mail.idempotencyKey}@${domainOf(config.from)}>`,
        headers: { 'X-Idempotency-Key': mail.idempotencyKey },
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

/** E-mails each lead to LEADS_EMAIL_TO through SMTP_URL; a reply goes straight to the visitor. */
export function emailChannel(config: EmailConfig): LeadChannel {
  const sender = smtpSender(config);
  return {
    name: 'email',
    async deliver(lead, signal) {
      const { subject, text } = leadText(lead);
      await sender.send({ to: config.to, replyTo: lead.submission.email, subject, text, idempotencyKey: lead.idempotency_key }, signal);
    },
    close: sender.close,
  };
}

/** E-mails the visitor that their lead was received; their answer to it reaches the agency (LEADS_EMAIL_TO). */
export function replyChannel(config: EmailConfig): LeadChannel {
  const sender = smtpSender(config);
  return {
    name: REPLY_CHANNEL,
    async deliverNotice(notice, signal) {
      if (notice.event !== 'lead.reply') throw new Error(`the reply channel cannot deliver ${notice.event}`);
      await sender.send({ to: notice.to, replyTo: config.to, subject: notice.subject, text: notice.text, idempotencyKey: notice.idempotency_key }, signal);
    },
    close: sender.close,
  };
}

/** E-mails an admin the site's weekly report (they asked for it on «Огляд»). */
export function reportChannel(config: EmailConfig): LeadChannel {
  const sender = smtpSender(config);
  return {
    name: REPORT_CHANNEL,
    async deliverNotice(notice, signal) {
      if (notice.event !== 'report.weekly') throw new Error(`the report channel cannot deliver ${notice.event}`);
      await sender.send({ to: notice.to, subject: notice.subject, text: notice.text, idempotencyKey: notice.idempotency_key }, signal);
    },
    close: sender.close,
  };
}
