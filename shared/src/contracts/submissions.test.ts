import { Value } from '@sinclair/typebox/value';
import { HONEYPOT_FIELD } from './honeypot';
import { FORM_TOKEN_FIELD, PROOF_OF_WORK_FIELD } from './spam-constants';
import { FIELD_LIMITS } from './limits';
import {
  CONTACT_MESSAGE_DEFAULTS,
  ContactMessageBodySchema,
  ContactMessageSchema,
  completeContactMessage,
  completeJobApplication,
  flattenLineBreaks,
  JobApplicationBodySchema,
  JobApplicationSchema,
} from './submissions';
import { VACANCY_TITLES } from './vacancies';

const MESSAGE = { name: 'Олена', email: 'olena@example.com', phone: '+380 67 123 45 67', message: 'Добрий день' };

describe('ContactMessageSchema', () => {
  it('accepts a message without company and service type (older clients), and with them empty', () => {
    expect(Value.Check(ContactMessageSchema, MESSAGE)).toBe(true);
    expect(Value.Check(ContactMessageSchema, { ...MESSAGE, company: '', service_type: '' })).toBe(true);
    expect(ContactMessageSchema.required).toEqual(['name', 'email', 'phone', 'message']);
  });

  it(`limits company to FIELD_LIMITS.company (${FIELD_LIMITS.company}) characters`, () => {
    expect(Value.Check(ContactMessageSchema, { ...MESSAGE, company: 'x'.repeat(FIELD_LIMITS.company) })).toBe(true);
    expect(Value.Check(ContactMessageSchema, { ...MESSAGE, company: 'x'.repeat(FIELD_LIMITS.company + 1) })).toBe(false);
  });

  it('keeps the service-type choice a string enum (so a number is reported as "not text")', () => {
    expect(ContactMessageSchema.properties.service_type).toMatchObject({ type: 'string', enum: ['', 'smm', 'content', 'leads', 'analytics'] });
  });
});

describe('request bodies', () => {
  it.each([
    ['contact', ContactMessageSchema, ContactMessageBodySchema, MESSAGE],
    ['application', JobApplicationSchema, JobApplicationBodySchema, { name: 'Олена', email: 'olena@example.com', phone: '+380 67 123 45 67', city: 'Львів', position: VACANCY_TITLES[0] }],
  ] as const)('%s: the submission plus the optional spam trap, form token, proof and attribution, closed to other fields', (_name, submission, body, valid) => {
    expect(Object.keys(body.properties)).toEqual([...Object.keys(submission.properties), HONEYPOT_FIELD, FORM_TOKEN_FIELD, PROOF_OF_WORK_FIELD, 'attribution']);
    // Any attribution passes the body's check: the API checks it apart and drops a bad one, never the lead.
    expect(Value.Check(body, { ...valid, attribution: { utm_source: 1, bogus: [] } })).toBe(true);
    expect(body.required).toEqual(submission.required);
    expect(body.additionalProperties).toBe(false);
    expect(submission.additionalProperties).toBe(false);
  });
});

describe('completeContactMessage', () => {
  it('stores what a client left out as its default, and keeps what it sent', () => {
    expect(completeContactMessage(MESSAGE)).toEqual({ ...MESSAGE, company: '', service_type: '' });
    expect(CONTACT_MESSAGE_DEFAULTS).toEqual({ company: '', service_type: '' });
    expect(completeContactMessage({ ...MESSAGE, company: 'ТОВ', service_type: 'smm' })).toEqual({
      ...MESSAGE,
      company: 'ТОВ',
      service_type: 'smm',
    });
  });
});

describe('completeJobApplication', () => {
  it('stores a missing resume as empty text', () => {
    const application = { name: 'Іван', email: 'ivan@example.com', phone: '+380671234567', city: 'Київ', position: 'x' };
    expect(completeJobApplication(application)).toEqual({ ...application, resume_text: '' });
    expect(completeJobApplication({ ...application, resume_text: 'Досвід' }).resume_text).toBe('Досвід');
  });
});

describe('service_type and position choices', () => {
  it('take only the offered values, as text', () => {
    expect(Value.Check(ContactMessageSchema, { ...MESSAGE, service_type: 'smm' })).toBe(true);
    expect(Value.Check(ContactMessageSchema, { ...MESSAGE, service_type: 'seo' })).toBe(false);
    expect(Value.Check(ContactMessageSchema, { ...MESSAGE, service_type: 1 })).toBe(false);
    const application = { name: 'Іван', email: 'ivan@example.com', phone: '+380671234567', city: 'Київ' };
    expect(Value.Check(JobApplicationSchema, { ...application, position: VACANCY_TITLES[0] })).toBe(true);
    expect(Value.Check(JobApplicationSchema, { ...application, position: 'Директор' })).toBe(false);
  });
});

describe('flattenLineBreaks', () => {
  it.each([
    ['Олена\nПетренко', 'Олена Петренко'],
    ['Олена \r\n  Петренко', 'Олена Петренко'],
    ['a\rb\u000Bc\u000Cd\u0085e\u2028f\u2029g', 'a b c d e f g'],
    ['трейлінг\n', 'трейлінг '],
    ['без розривів, з\tтабом', 'без розривів, з\tтабом'],
  ])('puts %j on one line as %j', (text, flat) => {
    expect(flattenLineBreaks(text)).toBe(flat);
  });
});

describe('flattenLineBreaks on what a client may send before limits apply', () => {
  it('flattens 64 KiB of spaces and breaks whole, keeping the text', () => {
    const spaces = ' '.repeat(64 * 1024);
    expect(flattenLineBreaks(`a${spaces}b`)).toBe(`a${spaces}b`);
    expect(flattenLineBreaks(`a${spaces}\n${spaces}b`)).toBe('a b');
    expect(flattenLineBreaks('\n'.repeat(64 * 1024))).toBe(' ');
  });
});
