import { buildDeliveryRequest, type DeliverableEvent } from '@hookline/core';
import { USER_AGENT } from '@hookline/core';
import { Agent, request } from 'undici';
import { nowMicros } from '../clock';
import type { Receivers } from '../receivers/receivers';
import { measureWindow, type MeasuredWindow, type WindowProbe, type WindowTiming } from './measure';
import { runOpenLoop } from './open-loop';
import { benchEventData, EVENT_TYPE_HEADER } from './bench-event';

// The ceiling: what undici alone does against the same receivers, with the same request (headers, body
// bytes, one POST per event) and the same concurrency, but no queue, no Redis and no worker in between.

function post(agent: Agent, url: string, dueAt: number): Promise<void> {
  const event: DeliverableEvent = {
    id: 'evt_ceiling',
    type: 'call_created',
    fields: { EventType: 'call_created', ...benchEventData(dueAt) },
  };
  const req = buildDeliveryRequest({ url, format: 'json', auth: { scheme: 'none' } }, event, {
    eventTypeHeader: EVENT_TYPE_HEADER,
    userAgent: USER_AGENT,
  });
  return request(req.url, { dispatcher: agent, method: 'POST', headers: req.headers, body: req.body }).then(
    (res) => res.body.dump(),
  );
}

/** One sequential stream per hook, each sending its next request as soon as the previous one is answered. */
export async function closedLoopCeiling<T>(
  receivers: Receivers,
  hooks: readonly number[],
  timing: WindowTiming,
  probe?: WindowProbe<T>,
): Promise<MeasuredWindow & { usage?: T }> {
  const agent = new Agent();
  let running = true;
  const streams = hooks.map(async (hook) => {
    const url = receivers.url(hook);
    while (running) await post(agent, url, nowMicros()).catch(() => undefined);
  });
  try {
    return await measureWindow(receivers, timing, probe);
  } finally {
    running = false;
    await Promise.allSettled(streams);
    await agent.close();
  }
}

/** `rate` requests per second, round robin over the hooks, each sent when due whatever is in flight. */
export async function openLoopCeiling<T>(
  receivers: Receivers,
  hooks: readonly number[],
  rate: number,
  timing: WindowTiming,
  probe?: WindowProbe<T>,
): Promise<MeasuredWindow & { usage?: T }> {
  const agent = new Agent();
  const inFlight = new Set<Promise<void>>();
  const loop = runOpenLoop(rate, (seq, dueAt) => {
    const sent = post(agent, receivers.url(hooks[seq % hooks.length]!), dueAt).catch(() => undefined);
    inFlight.add(sent);
    void sent.finally(() => inFlight.delete(sent));
  });
  try {
    return await measureWindow(receivers, timing, probe);
  } finally {
    loop.stop();
    await Promise.allSettled([...inFlight]);
    await agent.close();
  }
}
