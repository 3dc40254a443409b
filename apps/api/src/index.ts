export { apiPlugin, apiRoutes, buildApp } from './app';
export { OPERATOR, type ApiDeps, type HeldChoice } from './deps';
export { openApiDocument } from './openapi';
export { createApiDeps, runApiProcess, type ProductionApiDeps } from './api-process';
