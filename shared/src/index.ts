export * from './types';
export * from './constants/vacancies';
export * from './constants/service-types';
export * from './constants/toasts';
export * from './constants/brand';
export * from './constants/blog';
export * from './remotes';
export * from './contracts';
