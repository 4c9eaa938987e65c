import type { ServiceType } from '../types';

/** Service-type choices of the contact form (spec section 9): value sent to the API and its label. */
export const SERVICE_TYPES: readonly { value: ServiceType; label: string }[] = [
  { value: 'smm', label: 'SMM та просування' },
  { value: 'content', label: 'Контент-маркетинг' },
  { value: 'leads', label: 'Лідогенерація' },
  { value: 'analytics', label: 'Аналітика' },
];

export const SERVICE_TYPE_VALUES: readonly ServiceType[] = SERVICE_TYPES.map((type) => type.value);
