import {
  LogController,
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import type { Logger } from '@hookline/telemetry';

// How the HTTP tier logs requests. Fastify's default wrote two `info` lines for every request ("incoming
// request", "request completed"), each through a pino child logger made for that request: at a few hundred
// published events a second that was a large share of the tier's CPU per event (README, "Performance"). So:
// - the two access lines are `debug` (LOG_LEVEL=debug shows every request, as before at info);
// - errors are logged as before: the error handlers log every 500 (`error`) and every Redis outage (`warn`),
//   and a response that fails while being sent is `error`, as Fastify does;
// - a request's child logger (its `reqId` bound) is made only when a line at an enabled level is written.

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

// A sign-in link's path holds its token, a credential until the link is used (and one opened where the cookie
// did not come back stays unused): logged without it, the query kept. Recognised however the path is spelt
// (`/%70ortal/…` reaches the route; `/PORTAL/…` and `//portal/…` do not, and leave a valid link in the log).
const SIGN_IN_LINK = /^\/portal\//;

function isSignInLink(url: string): boolean {
  const path = url.split('?', 1)[0]!;
  const decoded = path.replace(/%[0-9a-f]{2}/gi, (escape) =>
    String.fromCharCode(Number.parseInt(escape.slice(1), 16)),
  );
  return SIGN_IN_LINK.test(decoded.toLowerCase().replace(/\/{2,}/g, '/'));
}

function redactedUrl(url: string): string {
  const query = url.indexOf('?');
  return `/portal/[redacted]${query >= 0 ? url.slice(query) : ''}`;
}

class RequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug(
      { req: isSignInLink(request.url) ? withoutToken(request) : request },
      'incoming request',
    );
  }

  override requestCompleted(
    error: Error | null | undefined,
    _request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error)
      reply.log.error({ res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/**
 * A request's logger: the pino child with the request's bindings, made on the first line written at an
 * enabled level. Most requests write none, and making the child (bindings serialised, redaction set up) is
 * what a request paid for its logger.
 */
class RequestLogger {
  private made?: FastifyBaseLogger;
  readonly fatal = this.at('fatal');
  readonly error = this.at('error');
  readonly warn = this.at('warn');
  readonly info = this.at('info');
  readonly debug = this.at('debug');
  readonly trace = this.at('trace');
  readonly silent = () => undefined;

  constructor(
    private readonly parent: FastifyBaseLogger & Pick<Logger, 'isLevelEnabled'>,
    private readonly bindings: Record<string, unknown>,
  ) {}

  get level(): string {
    return this.parent.level;
  }

  set level(level: string) {
    this.real().level = level;
  }

  isLevelEnabled(level: string): boolean {
    return this.made
      ? (this.made as unknown as Logger).isLevelEnabled(level)
      : this.parent.isLevelEnabled(level);
  }

  child(bindings: Record<string, unknown>, options?: object): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }

  private real(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings));
  }

  private at(level: Level): FastifyBaseLogger[Level] {
    return ((...args: Parameters<FastifyBaseLogger[Level]>) => {
      if (!this.isLevelEnabled(level)) return;
      (this.real()[level] as (...a: unknown[]) => void)(...args);
    }) as FastifyBaseLogger[Level];
  }
}

/** Fastify options for every server of the HTTP tier: the request log above. */
export function requestLogging(): Pick<FastifyServerOptions, 'logController' | 'childLoggerFactory'> {
  return {
    logController: new RequestLogController(),
    childLoggerFactory: (logger, bindings, options) =>
      // A route's own level or serializers need the child at once (none of hookline's routes set them).
      Object.keys(options).length > 0
        ? logger.child(bindings, options)
        : (new RequestLogger(
            logger as FastifyBaseLogger & Pick<Logger, 'isLevelEnabled'>,
            bindings,
          ) as unknown as FastifyBaseLogger),
  };
}

/** What Fastify's request serializer reads of a request, with the sign-in link's token replaced. */
function withoutToken(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactedUrl(request.url),
    host: request.host,
    ip: request.ip,
    socket: request.socket,
  };
}
