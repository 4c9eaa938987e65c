/** Service-type choices of the contact form: the value sent to the API and its label. */
export const SERVICE_TYPES = [
  { value: 'smm', label: 'SMM та просування' },
  { value: 'content', label: 'Контент-маркетинг' },
  { value: 'leads', label: 'Лідогенерація' },
  { value: 'analytics', label: 'Аналітика' },
] as const satisfies readonly { value: string; label: string }[];

export type ServiceType = (typeof SERVICE_TYPES)[number]['value'];

export const SERVICE_TYPE_VALUES: readonly ServiceType[] = SERVICE_TYPES.map((type) => type.value);
