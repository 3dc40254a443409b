import { keptResponseHeaders, type AttemptResult, type DeliveryRequest } from '@hookline/core';
import { request, type Dispatcher } from 'undici';
import { noResponseWithin } from './attempt-deadline';
import { classifyAttemptError, statusOutOfRange } from './attempt-error';
import { readCappedBody } from './capped-body';

type FirstEvent =
  | { readonly kind: 'response'; readonly response: Dispatcher.ResponseData }
  | { readonly kind: 'error'; readonly error: unknown }
  | { readonly kind: 'deadline' };

export const whenAborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });

/**
 * One POST on `dispatcher`, settled by `deadline` at the latest: the outcome from the status line, the body
 * read for its excerpt. `elapsed` is the attempt's stopwatch (started before any DNS or proxy work).
 */
export async function sendRequest(
  dispatcher: Dispatcher,
  req: DeliveryRequest,
  deadline: AbortSignal,
  timeoutMs: number,
  elapsed: () => number,
): Promise<AttemptResult> {
  const timedOut = (): AttemptResult => ({
    outcome: 'timed_out',
    durationMs: elapsed(),
    error: noResponseWithin(timeoutMs),
  });
  if (deadline.aborted) return timedOut();
  const pending = request(req.url, {
    dispatcher,
    method: 'POST',
    headers: req.headers,
    body: req.body,
    signal: deadline,
  });
  // undici ignores the abort while a TCP connect is pending (undici#386), so the deadline is a race that
  // the timer always wins on time; whatever undici reports later is dropped, its body destroyed.
  const first = await Promise.race<FirstEvent>([
    pending.then(
      (response) => ({ kind: 'response', response }),
      (error: unknown) => ({ kind: 'error', error }),
    ),
    whenAborted(deadline).then(() => ({ kind: 'deadline' })),
  ]);
  if (first.kind === 'deadline' || (first.kind === 'error' && deadline.aborted)) {
    pending.then(
      (late) => late.body.destroy(),
      () => undefined,
    );
    return timedOut();
  }
  if (first.kind === 'error') return { ...classifyAttemptError(first.error), durationMs: elapsed() };

  const { statusCode, body, headers } = first.response;
  // RFC 9110 §15: a status code is 100 to 599. undici passes any three digits from 100 on: 600 is no status at
  // all, neither a success nor a refusal, and was recorded `failed` with it.
  if (statusCode > 599) {
    body.on('error', () => undefined).destroy();
    return { outcome: 'error', error: statusOutOfRange(statusCode), durationMs: elapsed() };
  }
  // The outcome is fixed by the status line; the duration too, so a slow body does not inflate it.
  const durationMs = elapsed();
  const excerpt = await readCappedBody(body, deadline, req.keepResponseBytes);
  return {
    outcome: statusCode >= 200 && statusCode < 300 ? 'delivered' : 'failed',
    statusCode,
    durationMs,
    ...(excerpt ? { responseExcerpt: excerpt } : {}),
    responseHeaders: keptResponseHeaders(headers),
  };
}
