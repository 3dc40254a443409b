export { buildWebApp, webFrameworkErrors, webNotFound, webPlugin } from './web-app';
export type { WebDeps } from './deps';
