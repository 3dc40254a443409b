import { createReadStream, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import type {
  AppControllerRoute,
  AppViewRoute,
  BullBoardQueues,
  ControllerHandlerReturnType,
  IServerAdapter,
  UIConfig,
} from '@bull-board/api/typings/app';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

// Bull Board's server side on Fastify, without @bull-board/fastify: that adapter pulls in @fastify/static and
// @fastify/view, whose ESM-only dependencies the test runner cannot load. Bull Board needs little: its API
// routes, its static files and one page whose template only substitutes values.

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export interface BoardServerOptions {
  /** Bull Board API routes (as Bull Board names them) the app serves itself instead; Bull Board's are not mounted. */
  readonly ownRoutes?: readonly string[];
  /** A same-origin script of the app's own that the board page loads after Bull Board's. */
  readonly pageScript?: string;
  /** Answers an error of the board's routes before Bull Board's handler does (true when it answered). */
  readonly onError?: (error: Error, reply: FastifyReply) => boolean;
}

export class FastifyBoardAdapter implements IServerAdapter {
  private queues: BullBoardQueues = new Map();
  private uiConfig: UIConfig = {};
  private viewPath = '';
  private statics = { route: '/static', path: '' };
  private entry: AppViewRoute | undefined;
  private apiRoutes: AppControllerRoute[] = [];
  private errorHandler: ((error: Error) => ControllerHandlerReturnType) | undefined;
  private template: string | undefined;

  /** `basePath`: where the board is mounted, e.g. /admin/queues. */
  constructor(
    private readonly basePath: string,
    private readonly options: BoardServerOptions = {},
  ) {}

  setQueues(queues: BullBoardQueues): this {
    this.queues = queues;
    return this;
  }
  setViewsPath(viewPath: string): this {
    this.viewPath = viewPath;
    return this;
  }
  setStaticPath(route: string, path: string): this {
    this.statics = { route, path: resolve(path) };
    return this;
  }
  setEntryRoute(route: AppViewRoute): this {
    this.entry = route;
    return this;
  }
  setErrorHandler(handler: (error: Error) => ControllerHandlerReturnType): this {
    this.errorHandler = handler;
    return this;
  }
  setApiRoutes(routes: AppControllerRoute[]): this {
    this.apiRoutes = routes;
    return this;
  }
  setUIConfig(config: UIConfig): this {
    this.uiConfig = config;
    return this;
  }

  /** A Fastify plugin; register it with `{ prefix: basePath }` relative to its parent. */
  plugin() {
    return async (scope: FastifyInstance): Promise<void> => {
      const entry = this.entry;
      if (!entry || !this.errorHandler) throw new Error('createBullBoard must be called before registering');
      const onError = this.errorHandler;
      scope.setErrorHandler((error: Error, _request, reply) => {
        if (this.options.onError?.(error, reply)) return reply;
        const answer = onError(error);
        return reply.status(answer.status ?? 500).send(answer.body);
      });
      scope.get(`${this.statics.route}/*`, (request, reply) => this.sendStatic(request, reply));
      for (const url of ([] as string[]).concat(entry.route))
        scope.route({ method: 'GET', url, handler: (_request, reply) => this.sendPage(entry, reply) });
      const own = new Set(this.options.ownRoutes ?? []);
      for (const route of this.apiRoutes)
        for (const url of ([] as string[]).concat(route.route).filter((u) => !own.has(u)))
          scope.route({
            method: ([] as string[]).concat(route.method).map((m) => m.toUpperCase()) as ['GET'],
            url,
            handler: async (request, reply) => {
              const answer = await route.handler({
                queues: this.queues,
                uiConfig: this.uiConfig,
                params: request.params as Record<string, string>,
                query: request.query as Record<string, string>,
                body: (request.body ?? {}) as Record<string, unknown>,
                headers: request.headers as Record<string, string | undefined>,
              });
              return reply.status(answer.status ?? 200).send(answer.body);
            },
          });
    };
  }

  private sendPage(entry: AppViewRoute, reply: FastifyReply): FastifyReply {
    const { name, params } = entry.handler({ basePath: this.basePath, uiConfig: this.uiConfig });
    // Self-contained: the stylesheet links to other origins (Google Fonts) go, so an admin's browser calls
    // nowhere else and the page works offline; the fonts fall back to the system's.
    this.template ??= this.withPageScript(
      readFileSync(join(this.viewPath, name), 'utf8').replace(/<link[^>]+href="https?:\/\/[^"]*"[^>]*>/g, ''),
    );
    // The template uses only <%= value %> (escaped) and <%- value %> (already JSON-escaped by Bull Board).
    const html = this.template
      .replace(/<%=\s*(\w+)\s*%>/g, (_m, key: string) => escapeHtml(params[key] ?? ''))
      .replace(/<%-\s*(\w+)\s*%>/g, (_m, key: string) => params[key] ?? '');
    if (html.includes('<%')) throw new Error(`Bull Board's ${name} uses template syntax this adapter lacks`);
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
  }

  private withPageScript(template: string): string {
    const src = this.options.pageScript;
    if (!src) return template;
    const tag = `<script defer src="${escapeHtml(src)}" data-board="${escapeHtml(this.basePath)}"></script>`;
    if (!template.includes('</body>'))
      throw new Error("Bull Board's page has no </body> for the page script");
    return template.replace('</body>', `${tag}</body>`);
  }

  private async sendStatic(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const relative = (request.params as { '*': string })['*'];
    const file = resolve(this.statics.path, relative);
    // Nothing outside the UI's static folder, whatever the path says.
    if (!file.startsWith(this.statics.path + sep)) return reply.code(404).send();
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) return reply.code(404).send();
    return reply
      .type(CONTENT_TYPES[extname(file)] ?? 'application/octet-stream')
      .header('content-length', info.size)
      .header('cache-control', 'public, max-age=3600')
      .send(createReadStream(file));
  }
}

function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
