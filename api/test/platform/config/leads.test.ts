import { enabledChannels, loadLeadsConfig, TELEGRAM_API_URL } from '../../../src/platform/config/leads';

describe('loadLeadsConfig', () => {
  it('enables nothing without settings', () => {
    expect(loadLeadsConfig({})).toEqual({});
    expect(enabledChannels(loadLeadsConfig({}))).toEqual([]);
  });

  it('enables each channel from its variables', () => {
    const config = loadLeadsConfig({
      LEADS_WEBHOOK_URL: 'https://crm.example/hooks/leads',
      LEADS_WEBHOOK_SECRET: 's3cret',
      TELEGRAM_BOT_TOKEN: '123:abc',
      TELEGRAM_CHAT_ID: '-100123',
      SMTP_URL: 'smtps://user:pass@smtp.example:465',
      LEADS_EMAIL_TO: 'Відділ продажу <sales@khvylia.example>, owner@khvylia.example',
    });
    expect(config).toEqual({
      webhook: { url: 'https://crm.example/hooks/leads', secret: 's3cret' },
      telegram: { botToken: '123:abc', chatId: '-100123', apiUrl: TELEGRAM_API_URL },
      email: {
        smtpUrl: 'smtps://user:pass@smtp.example:465',
        to: 'Відділ продажу <sales@khvylia.example>, owner@khvylia.example',
        from: 'sales@khvylia.example',
      },
    });
    expect(enabledChannels(config)).toEqual(['webhook', 'telegram', 'email']);
  });

  it('takes a Bot API address and a sender when given', () => {
    const config = loadLeadsConfig({
      TELEGRAM_BOT_TOKEN: '1:a',
      TELEGRAM_CHAT_ID: '2',
      TELEGRAM_API_URL: 'http://127.0.0.1:9000/',
      SMTP_URL: 'smtp://127.0.0.1:2525',
      LEADS_EMAIL_TO: 'sales@khvylia.example',
      LEADS_EMAIL_FROM: 'Сайт «Хвиля» <site@khvylia.example>',
    });
    expect(config.telegram?.apiUrl).toBe('http://127.0.0.1:9000');
    expect(config.email?.from).toBe('Сайт «Хвиля» <site@khvylia.example>');
  });

  it.each([
    [{ LEADS_WEBHOOK_URL: 'crm.example/hook' }, /LEADS_WEBHOOK_URL must be an http\(s\) URL/],
    [{ LEADS_WEBHOOK_URL: 'ftp://crm.example/hook' }, /LEADS_WEBHOOK_URL must be an http\(s\) URL/],
    [{ LEADS_WEBHOOK_SECRET: 'x' }, /LEADS_WEBHOOK_URL is not/],
    [{ TELEGRAM_BOT_TOKEN: '1:a' }, /TELEGRAM_CHAT_ID must be set together with TELEGRAM_BOT_TOKEN/],
    [{ TELEGRAM_CHAT_ID: '5' }, /TELEGRAM_BOT_TOKEN must be set together with TELEGRAM_CHAT_ID/],
    [{ SMTP_URL: 'smtp://localhost' }, /LEADS_EMAIL_TO must be set together with SMTP_URL/],
    [{ SMTP_URL: 'mail.example:25', LEADS_EMAIL_TO: 'a@b.c' }, /SMTP_URL must look like smtp:/],
  ])('refuses %p at start', (env, message) => {
    expect(() => loadLeadsConfig(env)).toThrow(message);
  });
});
