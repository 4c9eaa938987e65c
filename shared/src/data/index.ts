// Loading API data in the browser apps: one hook, one set of states, checked answers.
export type { ApiResource } from './api-resource';
export { useApiResource, type ApiData } from './use-api-resource';
export * from './api-resources';
