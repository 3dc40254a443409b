import { request } from 'node:http';

// fastify's inject() loads light-my-request, which requires the ESM-only `cookie` package that jest on
// Node 20 cannot load; so the tests talk real HTTP to the app listening on 127.0.0.1:0 (style.md allows
// either), with node:http so that no header is added behind the test's back.

export interface Answer {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
  json<T = any>(): T; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read answers loosely
}

export interface RawRequest {
  readonly method: string;
  readonly path: string;
  readonly headers?: Record<string, string | string[]>;
  readonly body?: string | Buffer;
}

export function httpCall(port: number, req: RawRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const outgoing = request(
      { host: '127.0.0.1', port, method: req.method, path: req.path, headers: req.headers, agent: false },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          resolve({
            statusCode: res.statusCode ?? 0,
            headers: res.headers,
            body,
            json: () => JSON.parse(body),
          });
        });
      },
    );
    // The server may answer (413) and close before it has read all of a large body: the answer counts, and
    // only a connection that closes without one fails the call.
    let failure: Error | undefined;
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      failure = error;
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    outgoing.on('close', () => {
      if (!answered) reject(failure ?? new Error('connection closed without an answer'));
    });
    if (req.body !== undefined) outgoing.end(req.body);
    else outgoing.end();
  });
}
