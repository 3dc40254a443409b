import { spawn, type ChildProcess } from 'node:child_process';
import { buildDeliveryRequest, type DeliverableEvent } from '@hookline/core';
import { createDeliverer, type Deliverer } from './deliverer';

// A worker process can stall past the deadline with a request on the wire (a long GC pause, a container's CPU
// throttled, SIGSTOP): the endpoint's answer, given in time, waits in the socket while the process sleeps. On
// waking, the deadline's timer is overdue and due before any socket is read; the answer that is already there
// decides the outcome, not the stall. The receiver is a process of its own, so that it answers while this one
// is blocked.

const event: DeliverableEvent = {
  id: 'evt_stalled',
  type: 'call_created',
  fields: { EventType: 'call_created', call_id: 'c-stalled', rate: '0.0' },
};

// Says 'stall' over IPC a second after a request's body arrived, and answers 200 half a second after that:
// while the requesting process, told to stall, sleeps, and well within its deadline.
const RECEIVER = `
const server = require('node:http').createServer((req, res) => {
  req.resume();
  req.on('end', () =>
    setTimeout(() => {
      process.send('stall');
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok, in time'), 500);
    }, 1000),
  );
});
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('disconnect', () => process.exit(0));
`;

const TIMEOUT_MS = 3000;

let receiver: ChildProcess;
let port: number;
let deliverer: Deliverer;

beforeEach(async () => {
  receiver = spawn(process.execPath, ['-e', RECEIVER], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  port = await new Promise<number>((resolve) =>
    receiver.once('message', (m) => resolve((m as { port: number }).port)),
  );
  deliverer = createDeliverer({ timeoutMs: TIMEOUT_MS, allowNetworks: ['127.0.0.0/8'] });
});
afterEach(async () => {
  await deliverer.close();
  receiver.disconnect();
});

/** Blocks this process's event loop, as a stall does: no timer and no socket is served meanwhile. */
function stall(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

it('records the answer that came in time, not a timeout, when the process stalled past the deadline', async () => {
  // The stall starts a second into the wait, when undici's own timers for the request run too, in an I/O
  // callback (as a long GC pause can), and outlasts the deadline twice.
  receiver.on('message', (m) => m === 'stall' && stall(2 * TIMEOUT_MS));
  const req = buildDeliveryRequest(
    { url: `http://127.0.0.1:${port}/in`, format: 'json', auth: { scheme: 'none' } },
    event,
    {
      eventTypeHeader: 'X-Service-Event-Type',
      userAgent: 'hookline-test/1',
    },
  );
  const result = await deliverer.attempt(req);
  expect(result).toMatchObject({ outcome: 'delivered', statusCode: 200 });
  expect(result.durationMs).toBeGreaterThan(2 * TIMEOUT_MS);
});

it('still times out an endpoint that has not answered when the deadline passes', async () => {
  receiver.kill('SIGSTOP');
  try {
    const req = buildDeliveryRequest(
      { url: `http://127.0.0.1:${port}/in`, format: 'json', auth: { scheme: 'none' } },
      event,
      {
        eventTypeHeader: 'X-Service-Event-Type',
        userAgent: 'hookline-test/1',
      },
    );
    expect(await deliverer.attempt(req)).toMatchObject({
      outcome: 'timed_out',
      error: `no response within ${TIMEOUT_MS} ms`,
    });
  } finally {
    receiver.kill('SIGCONT');
  }
});
