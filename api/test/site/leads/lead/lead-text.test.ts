import { clip, leadText, TELEGRAM_TEXT_MAX } from '../../../../src/site/leads/lead/lead-text';
import type { LeadPayload } from '../../../../src/site/leads/lead/lead-payload';

const CONTACT: LeadPayload = {
  kind: 'contact',
  id: 42,
  idempotency_key: 'contact-42',
  created_at: '2026-11-22T08:05:00.000Z',
  referrer: null,
  submission: {
    name: 'Олена Петренко',
    email: 'olena@example.com',
    phone: '+380671234567',
    company: '',
    service_type: '',
    message: 'Потрібна реклама.\nДякую!',
  },
};

describe('leadText', () => {
  it('writes a contact message as labelled lines, leaving out what the visitor did not fill', () => {
    const { subject, text } = leadText(CONTACT);
    expect(subject).toBe('Нова заявка з сайту «Хвиля» №42: Олена Петренко');
    const lines = text.split('\n');
    expect(lines).toEqual([
      'Нова заявка з сайту «Хвиля» №42',
      '',
      'Імʼя: Олена Петренко',
      'Email: olena@example.com',
      'Телефон: +380671234567',
      lines[5],
      '',
      'Повідомлення:',
      'Потрібна реклама.',
      'Дякую!',
    ]);
    // Kyiv time, whatever the server's time zone.
    expect(lines[5]).toMatch(/^Отримано: 22 листопада 2026.* 10:05$/);
    expect(text).not.toMatch(/Компанія|Послуга|Сторінка/);
  });

  it('writes every field on its own one line, whatever line breaks a stored value holds', () => {
    const lead: LeadPayload = {
      ...CONTACT,
      referrer: 'https://khvylia.example/\r\nEmail: x@evil.example',
      submission: { ...CONTACT.submission, name: 'Олена\nEmail: ceo@evil.example\u2028Телефон: 000', company: 'A\u2029B' },
    };
    const { subject, text } = leadText(lead);
    const lines = text.split('\n');
    expect(lines.filter((line) => /^(Email|Телефон):/.test(line))).toEqual(['Email: olena@example.com', 'Телефон: +380671234567']);
    expect(lines).toContain('Імʼя: Олена Email: ceo@evil.example Телефон: 000');
    expect(lines).toContain('Компанія: A B');
    expect(lines).toContain('Сторінка: https://khvylia.example/ Email: x@evil.example');
    expect(subject).toBe('Нова заявка з сайту «Хвиля» №42: Олена Email: ceo@evil.example Телефон: 000');
    // The message is the visitor's own words: its lines stay.
    expect(text.endsWith('Повідомлення:\nПотрібна реклама.\nДякую!')).toBe(true);
  });
});

describe('clip', () => {
  it('keeps text that fits and cuts what does not, with an ellipsis, within Telegram’s limit', () => {
    expect(clip('коротко', 10)).toBe('коротко');
    const long = 'а'.repeat(TELEGRAM_TEXT_MAX + 10);
    const clipped = clip(long, TELEGRAM_TEXT_MAX);
    expect(clipped).toHaveLength(TELEGRAM_TEXT_MAX);
    expect(clipped.endsWith('…')).toBe(true);
  });

  it('never splits an emoji in half', () => {
    const clipped = clip(`${'x'.repeat(8)}🎉🎉`, 10);
    expect(clipped).toBe(`${'x'.repeat(8)}…`);
    expect(clipped).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});
