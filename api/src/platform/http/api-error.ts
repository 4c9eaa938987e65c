import type { ApiErrorBody } from '@agency/shared';
import { BLOG_LIMIT_MAX, BLOG_PAGE_MAX } from '@agency/shared/contracts';

/** Every error the API sends has this shape; messages are Ukrainian, for people. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toBody(): ApiErrorBody {
    return {
      error: { code: this.code, message: this.message, ...(this.fields ? { fields: this.fields } : {}) },
    };
  }
}

export const MESSAGES = {
  validation: 'Перевірте правильність заповнення полів',
  invalidBody: 'Тіло запиту має бути JSON-обʼєктом',
  invalidJson: 'Некоректний JSON у тілі запиту',
  emptyBody: 'Тіло запиту порожнє',
  unsupportedMediaType: 'Підтримується лише тіло запиту у форматі application/json',
  notFound: 'Ресурс не знайдено',
  postNotFound: 'Статтю не знайдено',
  blogPageNotFound: 'Такої сторінки блогу немає',
  methodNotAllowed: 'Метод не підтримується',
  rateLimited: 'Забагато запитів. Спробуйте, будь ласка, трохи пізніше',
  badRequest: 'Некоректний запит',
  badUrl: 'Некоректна адреса запиту',
  internal: 'Внутрішня помилка сервера. Спробуйте пізніше',
  unavailable: 'Сервіс тимчасово недоступний',
  idempotencyKeyReused: 'Цей ключ ідемпотентності вже використано для іншого запиту',
  invalidQuery: 'Некоректні параметри запиту',
  nulCharacter: 'Текст містить недопустимі символи',
  emptyTelemetry: 'Звіт не містить жодної події',
  unauthorized: 'Потрібен дійсний токен доступу',
  crossSiteForm: 'Форму надіслано з іншого сайту',
} as const;

/** A body over its route's limit (`bodyLimit`, in bytes). */
export function payloadTooLargeMessage(limitBytes: number): string {
  const mebibytes = limitBytes / (1024 * 1024);
  return `Запит завеликий (максимум ${Number.isInteger(mebibytes) ? `${mebibytes} МіБ` : `${Math.floor(limitBytes / 1024)} КіБ`})`;
}

const REQUIRED: Record<string, string> = {
  name: 'Вкажіть імʼя',
  email: 'Вкажіть адресу електронної пошти',
  phone: 'Вкажіть номер телефону',
  city: 'Вкажіть місто',
  position: 'Оберіть одну з вакансій',
  message: 'Напишіть повідомлення',
};

const INVALID: Record<string, string> = {
  email: 'Некоректна адреса електронної пошти',
  phone: 'Некоректний номер телефону',
  position: 'Оберіть одну з вакансій',
  service_type: 'Оберіть один із запропонованих видів послуг',
  limit: `Параметр limit має бути цілим числом від 1 до ${BLOG_LIMIT_MAX}`,
  page: `Параметр page має бути цілим числом від 1 до ${BLOG_PAGE_MAX}`,
};

/** The subset of Ajv's error object we read. */
export interface ValidationIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}

const PRIORITY: Record<string, number> = { required: 0, type: 1, minLength: 2, maxLength: 3 };

function fieldOf(issue: ValidationIssue): string | undefined {
  if (issue.keyword === 'required' && typeof issue.params.missingProperty === 'string') {
    return issue.params.missingProperty;
  }
  const path = issue.instancePath.replace(/^\//, '');
  return path === '' ? undefined : path.split('/')[0];
}

function messageFor(field: string, issue: ValidationIssue): string {
  switch (issue.keyword) {
    case 'required':
    case 'minLength':
      return REQUIRED[field] ?? 'Заповніть це поле';
    case 'type':
      return 'Значення має бути текстом';
    case 'maxLength':
      return `Текст задовгий (максимум ${String(issue.params.limit)} символів)`;
    case 'not':
      // Only `additionalProperties: Type.Never()` says `not`: a parameter the route does not take.
      return 'Невідомий параметр';
    default:
      return INVALID[field] ?? 'Некоректне значення';
  }
}

/** Ajv errors → one Ukrainian message per field (the most basic problem of each field wins). */
export function validationError(issues: readonly ValidationIssue[], context: string | undefined): ApiError {
  const fields: Record<string, string> = {};
  const chosen: Record<string, number> = {};
  for (const issue of issues) {
    const field = fieldOf(issue);
    if (field === undefined) {
      return new ApiError(400, 'INVALID_BODY', context === 'body' ? MESSAGES.invalidBody : MESSAGES.invalidQuery);
    }
    const priority = PRIORITY[issue.keyword] ?? 4;
    if (chosen[field] === undefined || priority < chosen[field]) {
      chosen[field] = priority;
      fields[field] = messageFor(field, issue);
    }
  }
  return new ApiError(400, 'VALIDATION_ERROR', context === 'body' ? MESSAGES.validation : MESSAGES.invalidQuery, fields);
}
