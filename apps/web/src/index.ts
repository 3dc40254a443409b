export { buildWebApp, webNotFound, webPlugin } from './web-app';
export type { HeldChoice, WebDeps } from './deps';
