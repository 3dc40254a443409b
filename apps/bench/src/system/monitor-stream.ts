import { connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

// MONITOR over a socket of its own, read line by line. ioredis's monitor() can fail with "Command queue state
// error" when monitor lines arrive while its connection is still doing its ready check (seen when the bench
// watched a Redis flooded by a backlog of deliveries); a monitor line is one RESP simple string, so reading
// them needs no client library.

export interface MonitorLine {
  /** The client address as Redis names it ("127.0.0.1:54321"), or "lua" for commands run by a script. */
  readonly source: string;
  /** Lower case. */
  readonly command: string;
}

/** One line of MONITOR output (`+1712098529.327989 [0 127.0.0.1:62763] "info"`), without its CRLF. */
export function parseMonitorLine(line: string): MonitorLine | undefined {
  const m = /^\+\d+\.\d+ \[\d+ ([^\]]+)\] "((?:[^"\\]|\\.)*)"/.exec(line);
  return m ? { source: m[1]!, command: m[2]!.toLowerCase() } : undefined;
}

/** A command as RESP (an array of bulk strings). */
export function respCommand(...args: readonly string[]): string {
  return `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`;
}

export interface MonitorStream {
  /** Resolves once MONITOR is on (its +OK arrived); rejects if the connection or AUTH failed first. */
  readonly started: Promise<void>;
  /** Resolves when the connection has ended, by close() or by an error. */
  readonly ended: Promise<void>;
  close(): void;
}

/** Streams every command Redis runs to `onLine` until closed; connection errors end the stream quietly. */
export function monitorStream(redisUrl: string, onLine: (line: MonitorLine) => void): MonitorStream {
  const url = new URL(redisUrl);
  const host = url.hostname || '127.0.0.1';
  const port = Number(url.port || 6379);
  const socket: Socket =
    url.protocol === 'rediss:' ? tlsConnect({ host, port, servername: host }) : tcpConnect({ host, port });
  const password = decodeURIComponent(url.password);
  const user = decodeURIComponent(url.username);
  // Replies owed before MONITOR's own +OK: one for AUTH when there is a password.
  let awaiting = password ? 2 : 1;
  let buffered = '';
  let start: { resolve: () => void; reject: (error: Error) => void } | undefined;
  const started = new Promise<void>((resolve, reject) => (start = { resolve, reject }));
  const fail = (error: Error) => {
    start?.reject(error);
    start = undefined;
    socket.destroy();
  };
  socket.setEncoding('utf8');
  socket.on('connect', () => {
    if (password) socket.write(user ? respCommand('AUTH', user, password) : respCommand('AUTH', password));
    socket.write(respCommand('MONITOR'));
  });
  socket.on('secureConnect', () => socket.emit('connect'));
  socket.on('error', (error) => fail(error));
  const ended = new Promise<void>((resolve) =>
    socket.on('close', () => {
      fail(new Error('the MONITOR connection closed'));
      resolve();
    }),
  );
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    let end: number;
    while ((end = buffered.indexOf('\r\n')) >= 0) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      if (awaiting > 0) {
        if (line.startsWith('-')) return fail(new Error(`Redis refused MONITOR: ${line.slice(1)}`));
        awaiting -= 1;
        if (awaiting === 0) {
          start?.resolve();
          start = undefined;
        }
        continue;
      }
      const parsed = parseMonitorLine(line);
      if (parsed) onLine(parsed);
    }
  });
  // Awaited through Promise.race by the caller, which may stop waiting for it first.
  started.catch(() => undefined);
  return { started, ended, close: () => socket.destroy() };
}
