import { connect } from 'node:net';
import pg from 'pg';

/**
 * What answers at a URL the suite would use: something usable, nothing at all (a throwaway server is started
 * instead), or a server that turns the suite away (a password it does not have, say) — also replaced by a
 * throwaway one, with the reason printed, because the suite cannot use it either way.
 */
export type Probe =
  | { readonly kind: 'usable' }
  | { readonly kind: 'absent' }
  | { readonly kind: 'refused'; readonly reason: string };

const PROBE_TIMEOUT_MS = 1500;

/** PING over a plain socket (no client library retries): `+PONG` means a Redis the suite can use. */
export function probeRedis(url: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<Probe> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname || '127.0.0.1', port: Number(port || 6379) });
    let reply = '';
    const done = (probe: Probe) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(probe);
    };
    const timer = setTimeout(
      () =>
        done(
          reply || socket.readyState === 'open'
            ? { kind: 'refused', reason: 'it does not answer PING like a Redis' }
            : { kind: 'absent' },
        ),
      timeoutMs,
    );
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString('latin1');
      if (!reply.includes('\r\n')) return;
      if (reply.startsWith('+PONG')) done({ kind: 'usable' });
      else done({ kind: 'refused', reason: `it answers PING with ${reply.trim().slice(0, 80)}` });
    });
    socket.once('error', () => done({ kind: 'absent' }));
  });
}

/** Nothing listening, or not within the timeout: the codes Node gives for a closed or unreachable port. */
const NOTHING_THERE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENOTFOUND', 'EADDRNOTAVAIL']);

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

async function connectOnce(url: string, timeoutMs: number): Promise<unknown> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Logs in to the suite's database. A server that answers but lacks the database gets it created (what CI
 * used to do by hand); a login the server refuses is reported with the server's own words.
 */
export async function probePostgres(url: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<Probe> {
  const error = await connectOnce(url, timeoutMs);
  if (error === undefined) return { kind: 'usable' };
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  if ((code && NOTHING_THERE.has(code)) || /timeout/i.test(message)) return { kind: 'absent' };
  if (code === '3D000') {
    const created = await createDatabase(url);
    return created === undefined
      ? { kind: 'usable' }
      : { kind: 'refused', reason: `it has no database for the suite and would not create one: ${created}` };
  }
  return { kind: 'refused', reason: message };
}

/** CREATE DATABASE for the URL's database, connected to the server's `postgres` database; the error or undefined. */
export async function createDatabase(url: string): Promise<string | undefined> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1)) || 'test';
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({
    connectionString: admin.toString(),
    connectionTimeoutMillis: PROBE_TIMEOUT_MS,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
    return undefined;
  } catch (error) {
    // Another run created it between the probe and here: that is what was wanted.
    if (errorCode(error) === '42P04') return undefined;
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}
