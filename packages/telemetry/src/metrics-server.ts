import { createServer, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HooklineError, NOT_THIS_MACHINE_CODES, validationError, type Readiness } from '@hookline/core';
import type { Registry } from 'prom-client';

export interface ProbeServerOptions {
  /** HOOKLINE_METRICS_PORT (0: any free one; the port taken is returned). */
  readonly port: number;
  /** HOOKLINE_METRICS_HOST. */
  readonly host: string;
  /** What /readyz answers; each of its checks bounded in time by the caller (READY_WITHIN_MS). */
  readiness(): Promise<Readiness>;
}

// The HTTP tier's bytes (apps/api/src/routes/health.ts), so that one probe configuration reads every process.
const JSON_TYPE = 'application/json; charset=utf-8';
const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': JSON_TYPE }).end(JSON.stringify(body));

/**
 * /metrics, /healthz (liveness: answers while the process runs, touching nothing) and /readyz (readiness) for
 * processes that have no HTTP server of their own (worker, monitor), on HOOKLINE_METRICS_HOST and
 * HOOKLINE_METRICS_PORT: an address it cannot take is named with its setting, which Node's
 * `listen EADDRINUSE …` does not say.
 */
export async function serveMetrics(
  registry: Registry,
  options: ProbeServerOptions,
): Promise<{ port: number; close(): Promise<void> }> {
  const { port, host } = options;
  const server: Server = createServer((req, res) => {
    const refused = refusal(req.method ?? 'GET', req.url ?? '/');
    if (refused) json(res, refused.status, refused.toBody());
    else if (req.url === '/metrics') {
      registry
        .metrics()
        .then((text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text))
        .catch(() => res.writeHead(500).end());
    } else if (req.url === '/healthz') json(res, 200, { status: 'ok' });
    else if (req.url === '/readyz')
      options
        .readiness()
        .then((answer) =>
          answer.ready
            ? json(res, 200, { status: 'ok', checks: answer.checks })
            : json(res, answer.problem.status, answer.problem.toBody()),
        )
        .catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(listenProblem(error, port, host)));
    server.listen(port, host, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const PATHS = new Set(['/metrics', '/healthz', '/readyz']);
// The HTTP tier's own paths quote at most this much of an unknown path.
const QUOTED_PATH_MAX = 200;

/**
 * What the HTTP tier answers the same request with, when it is not one of the three GETs: 404 "No route …" for
 * another path or method, 400 naming each query parameter (none of the three takes one).
 */
function refusal(method: string, url: string): HooklineError | undefined {
  const [path = '', query] = url.split('?', 2);
  if (!PATHS.has(path) || (method !== 'GET' && method !== 'HEAD')) {
    const quoted = path.length > QUOTED_PATH_MAX ? `${path.slice(0, QUOTED_PATH_MAX)}…` : path;
    return new HooklineError('NOT_FOUND', `No route ${method} ${quoted}`);
  }
  const names = [...new Set(new URLSearchParams(query ?? '').keys())];
  if (names.length === 0) return undefined;
  return validationError(names.map((field) => ({ field, message: 'is not a known field' })));
}

function listenProblem(error: NodeJS.ErrnoException, port: number, host: string): Error {
  if (error.code !== undefined && NOT_THIS_MACHINE_CODES.has(error.code))
    return new Error(
      `HOOKLINE_METRICS_HOST=${host}: cannot listen there (${error.message}); give an address of this machine ` +
        '(0.0.0.0 or :: for all of them, 127.0.0.1 for this machine only) or a name that resolves to one',
    );
  if (error.code === 'EADDRINUSE')
    return new Error(
      `HOOKLINE_METRICS_PORT=${port}: another process already listens on it at ${host} (${error.message}); ` +
        'give each worker and monitor on this machine a port of its own, or 0 for any free one',
    );
  if (error.code === 'EACCES')
    return new Error(
      `HOOKLINE_METRICS_PORT=${port}: this process may not listen on it (${error.message}); ports below 1024 ` +
        'need privileges',
    );
  return error;
}
