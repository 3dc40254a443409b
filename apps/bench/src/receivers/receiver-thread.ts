import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { nowMicros } from '../clock';
import { readStamp } from '../event-stamp';
import { GrowableSeries } from './growable-series';
import { hookIndexOfPath, type FromReceivers, type ToReceivers } from './protocol';

// Runs on its own thread: plain node:http servers on 127.0.0.1 that answer 200 at once (or never, for hooks
// told to hang), time each receipt against the publish stamp in the body, and tell the main thread which
// hooks just received something.
const port = parentPort!;
const send = (message: FromReceivers, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

const healthy = new GrowableSeries();
let hangingCount = 0;
let hanging = new Set<number>();
const held = new Set<ServerResponse>();
const sockets = new Set<Socket>();

let batch: number[] = [];
let flushScheduled = false;
function noteReceipt(hook: number): void {
  batch.push(hook);
  if (flushScheduled) return;
  flushScheduled = true;
  setImmediate(() => {
    const hooks = Int32Array.from(batch);
    batch = [];
    flushScheduled = false;
    send({ type: 'receipts', hooks }, [hooks.buffer as ArrayBuffer]);
  });
}

const servers = Array.from({ length: workerData as number }, () =>
  createServer((req, res) => {
    const hook = hookIndexOfPath(req.url);
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const receivedAt = nowMicros();
      const stamp = readStamp(body);
      if (hook !== undefined && hanging.has(hook)) {
        hangingCount += 1;
        held.add(res);
        res.on('close', () => held.delete(res));
      } else {
        if (stamp !== undefined) healthy.push(receivedAt, receivedAt - stamp);
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' }).end('ok');
      }
      if (hook !== undefined) noteReceipt(hook);
    });
  }),
);

function handle(message: ToReceivers): void {
  switch (message.type) {
    case 'hang':
      hanging = new Set(message.hooks);
      // Requests held so far are answered, so a backlog behind a hanging hook drains quickly.
      for (const res of held) if (!res.writableEnded) res.writeHead(200).end('ok');
      held.clear();
      send({ type: 'done', id: message.id });
      return;
    case 'collect': {
      const window = { healthy: healthy.take(message.from, message.to), hangingCount };
      hangingCount = 0;
      send({ type: 'done', id: message.id, window }, [window.healthy.buffer as ArrayBuffer]);
      return;
    }
    case 'stop':
      for (const s of sockets) s.destroy();
      void Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))).then(() => {
        send({ type: 'done', id: message.id });
        port.close();
      });
      return;
  }
}

void (async () => {
  for (const server of servers) {
    server.keepAliveTimeout = 30_000;
    server.on('connection', (s: Socket) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  }
  port.on('message', handle);
  send({ type: 'ready', ports: servers.map((s) => (s.address() as AddressInfo).port) });
})();
