export { apiPlugin, apiRoutes, buildApp } from './app';
export { OPERATOR, type ApiDeps } from './deps';
export { openApiDocument } from './openapi';
export { BODY_LIMIT } from './json-body';
export { requestLogging } from './request-log';
export { routerLimits } from './router-options';
export { errorHandler } from './error-handler';
export { clientErrorHandler } from './client-errors';
