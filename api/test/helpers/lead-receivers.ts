import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** Local stand-ins for the agency's webhook, Telegram's Bot API and its mail server. */

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The status this receiver answered with. */
  status: number;
}

export interface Answer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Answer this late, as a slow receiver would. */
  delayMs?: number;
}

export interface HttpReceiver {
  url: string;
  port: number;
  /** Every request received, in order, with the status it was answered. */
  received: ReceivedRequest[];
  /** Requests that were answered 2xx. */
  accepted(): ReceivedRequest[];
  answer: (request: Omit<ReceivedRequest, 'status'>) => Answer;
  close(): Promise<void>;
}

const OK_JSON: Answer = { status: 200, body: '{"ok":true,"result":{"message_id":1}}', headers: { 'content-type': 'application/json' } };

/** An HTTP server on 127.0.0.1 (on `port` if given) that records each request; answers 200 by default. */
export async function startHttpReceiver(port = 0): Promise<HttpReceiver> {
  const receiver: HttpReceiver = {
    url: '',
    port: 0,
    received: [],
    accepted: () => receiver.received.filter((request) => request.status >= 200 && request.status < 300),
    answer: () => OK_JSON,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      const answer = receiver.answer(request);
      receiver.received.push({ ...request, status: answer.status });
      setTimeout(() => {
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body ?? '');
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}`;
  return receiver;
}

export interface SmtpSink {
  /** smtp://127.0.0.1:<port> */
  url: string;
  messages: ParsedMail[];
  /** Envelope recipients of each message, in order. */
  recipients: string[][];
  /** The messages sent to `address`, in order (the agency's notifications, or a visitor's reply). */
  sentTo(address: string): ParsedMail[];
  close(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1 that accepts any mail and keeps it, parsed. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const sink: SmtpSink = {
    url: '',
    messages: [],
    recipients: [],
    sentTo: (address) => sink.messages.filter((_, index) => sink.recipients[index]!.includes(address)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          sink.messages.push(mail);
          sink.recipients.push(session.envelope.rcptTo.map((rcpt) => rcpt.address));
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  sink.url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  return sink;
}
