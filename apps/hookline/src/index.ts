export { buildHttpServer, type HttpServerDeps } from './http-server';
