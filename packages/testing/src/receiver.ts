import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  /** Header names lower-cased, as Node gives them. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The raw header list in the order received, names as sent. */
  readonly rawHeaders: readonly string[];
  readonly body: Buffer;
  /** The address the request came from (the sender's, or its egress proxy's). */
  readonly remoteAddress: string;
  readonly receivedAt: number;
  readonly finishedAt?: number;
}

/** What the receiver does with a request: answer, or never answer, or reset the connection. */
export type Behaviour =
  | {
      kind: 'status';
      status: number;
      body?: string;
      headers?: Record<string, string | string[]>;
      delayMs?: number;
    }
  | { kind: 'hang' }
  | { kind: 'reset' };

/**
 * A real HTTP server on 127.0.0.1:0 that records the exact bytes of every request. `respond` picks the
 * behaviour per request (default 200). `inFlight`/`maxInFlight` let tests prove one-at-a-time delivery.
 */
export async function startReceiver(
  respond: (req: ReceivedRequest, index: number) => Behaviour = () => ({ kind: 'status', status: 200 }),
) {
  const requests: ReceivedRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  // Per path too: tests that give each hook its own path on one receiver check one-at-a-time per hook.
  const inFlightByPath = new Map<string, number>();
  let maxInFlightPerPath = 0;
  const waiters: { count: number; resolve: () => void }[] = [];

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const path = req.url ?? '';
    const onPath = (inFlightByPath.get(path) ?? 0) + 1;
    inFlightByPath.set(path, onPath);
    maxInFlightPerPath = Math.max(maxInFlightPerPath, onPath);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const record: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: { ...req.headers },
        rawHeaders: [...req.rawHeaders],
        body: Buffer.concat(chunks),
        remoteAddress: req.socket.remoteAddress ?? '',
        receivedAt: Date.now(),
      };
      const index = requests.length;
      requests.push(record);
      for (const w of [...waiters])
        if (requests.length >= w.count) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
      const behaviour = respond(record, index);
      const done = () => {
        inFlight -= 1;
        inFlightByPath.set(path, (inFlightByPath.get(path) ?? 1) - 1);
        (record as { finishedAt?: number }).finishedAt = Date.now();
      };
      if (behaviour.kind === 'hang') {
        res.on('close', done);
        return;
      }
      if (behaviour.kind === 'reset') {
        done();
        req.socket.resetAndDestroy();
        return;
      }
      const answer = () => {
        done();
        res.writeHead(behaviour.status, behaviour.headers);
        res.end(behaviour.body ?? '');
      };
      if (behaviour.delayMs) setTimeout(answer, behaviour.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    port,
    url: (path = '/webhook') => `http://127.0.0.1:${port}${path}`,
    requests,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    /** The most requests ever in flight at once on any one path. */
    get maxInFlightPerPath() {
      return maxInFlightPerPath;
    },
    /** Resolves once `count` requests have arrived; rejects after `timeoutMs`. */
    waitFor(count: number, timeoutMs = 20000): Promise<void> {
      if (requests.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`receiver got ${requests.length} of ${count} requests in ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    async close(): Promise<void> {
      // Every connection ends with it, a request held open ('hang') included: close() alone would wait for them.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
