export { buildWebApp, webNotFound, webPlugin } from './web-app';
export type { WebDeps } from './deps';
