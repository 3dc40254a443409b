import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts } from './ports';

export interface TinyproxyOptions {
  /** The only ports CONNECT may reach (tinyproxy's ConnectPort). */
  readonly connectPorts: readonly number[];
  /** Where the proxy's own connections leave from: endpoints see requests from this address. */
  readonly bind?: string;
  /** Proxy-Authorization the proxy requires (tinyproxy's BasicAuth). */
  readonly basicAuth?: { readonly user: string; readonly password: string };
}

export interface Tinyproxy {
  readonly port: number;
  /** `http://[user:password@]127.0.0.1:port`, as HOOKLINE_EGRESS_PROXY takes it. */
  readonly url: string;
  /** The `host:port` of every CONNECT the proxy was asked for, in order (from its log). */
  connects(): string[];
  /** The running proxy's process id (undefined while stopped), for a test that signals it from outside. */
  pid(): number | undefined;
  /** Stops the proxy (its port then refuses connections); `start` brings it back on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Who answers on the port: tinyproxy (its Server header on the 400 it gives an OPTIONS), another server, or
 * nobody. The port was free when picked, but a parallel test may have taken it before tinyproxy bound it; a
 * test would then talk to that server and wait for answers that never come.
 */
const whoAnswers = (port: number) =>
  new Promise<'tinyproxy' | 'other' | 'nobody'>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const done = (who: 'tinyproxy' | 'other' | 'nobody') => {
      clearTimeout(timer);
      socket.destroy();
      resolve(who);
    };
    const judged = () => done(/^Server: tinyproxy/im.test(text) ? 'tinyproxy' : 'other');
    const timer = setTimeout(judged, 2000);
    socket.once('connect', () => socket.write('OPTIONS * HTTP/1.0\r\n\r\n'));
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (text.includes('\r\n\r\n')) judged();
    });
    socket.once('close', judged);
    socket.once('error', () => done('nobody'));
  });

/**
 * A real tinyproxy (Debian's package) on 127.0.0.1, its own port, config and log in a temporary directory,
 * admitting clients from 127.0.0.1 only. Started by the test and stopped after it: SIGTERM, SIGKILL after 2 s.
 */
export async function startTinyproxy(options: TinyproxyOptions): Promise<Tinyproxy> {
  for (let tries = 1; ; tries++) {
    try {
      return await startOnce(options);
    } catch (error) {
      if (!(error instanceof PortTaken) || tries === 5) throw error;
    }
  }
}

class PortTaken extends Error {}

const STOP_GRACE_MS = 2000;

async function startOnce(options: TinyproxyOptions): Promise<Tinyproxy> {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-tinyproxy-'));
  const port = (await freePorts(1))[0]!;
  const log = join(dir, 'tinyproxy.log');
  const auth = options.basicAuth;
  const lines = [
    `Port ${port}`,
    'Listen 127.0.0.1',
    `Bind ${options.bind ?? '127.0.0.2'}`,
    'Timeout 30',
    'MaxClients 50',
    'Allow 127.0.0.1',
    ...options.connectPorts.map((p) => `ConnectPort ${p}`),
    'LogLevel Connect',
    `LogFile "${log}"`,
    ...(auth ? [`BasicAuth ${auth.user} ${auth.password}`] : []),
  ];
  const config = join(dir, 'tinyproxy.conf');
  writeFileSync(config, `${lines.join('\n')}\n`);
  let child: ChildProcess | undefined;

  const start = async () => {
    const started = spawn('tinyproxy', ['-d', '-c', config], { stdio: 'ignore' });
    child = started;
    const deadline = Date.now() + 10_000;
    for (;;) {
      const who = await whoAnswers(port);
      if (who === 'tinyproxy') return;
      if (started.exitCode !== null || who === 'other') {
        await stop();
        throw new PortTaken(`tinyproxy could not listen on ${port}: another process has the port`);
      }
      if (Date.now() > deadline) throw new Error(`tinyproxy did not listen on ${port}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((r) => running.once('exit', r));
    running.kill('SIGTERM');
    // tinyproxy's main thread polls its listening socket with no timeout and masks no signal in its tunnel
    // threads, and after the loop it frees its config while tunnels may still run: a SIGTERM can leave it
    // alive (one CI run's teardown waited 30 s). What a test reads (the log) is written line by line, so
    // SIGKILL after a grace loses nothing.
    const grace = setTimeout(() => running.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(grace);
  };
  try {
    await start();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const credentials = auth ? `${encodeURIComponent(auth.user)}:${encodeURIComponent(auth.password)}@` : '';
  return {
    port,
    url: `http://${credentials}127.0.0.1:${port}`,
    connects() {
      let text = '';
      try {
        text = readFileSync(log, 'utf8');
      } catch {
        return [];
      }
      return [...text.matchAll(/Request \(file descriptor \d+\): CONNECT (\S+) HTTP/g)].map((m) => m[1]!);
    },
    pid: () => child?.pid,
    stop,
    start,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
