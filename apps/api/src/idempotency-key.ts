import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { validationError, type RequestKey } from '@hookline/core';
import type { HeaderDoc } from './route';

// `Idempotency-Key` on the POSTs that queue an event for one hook (a route declared `idempotent`: test and
// send-again), as Stripe has it: a client that retries after a timeout sends the same key, and the endpoint
// gets one request.
//
// Design. The key is written by the script that queues the event (inbox-accept.lua), in the account's slot,
// in the same step: the key exists exactly when the event was queued, so there is no "in progress" state to
// expire and no moment where one is true without the other.
// - A retry, whenever it comes (after a timeout, after the first request's process died), finds the key and
//   answers the first request's status (202) and body, queuing nothing.
// - Two identical requests at the same moment both reach the script; Redis runs one script at a time, so one
//   queues the event and writes the key, and the other finds the key and answers the same body, once the first
//   one's event is in the hook's queue (it completes an unfinished fan-out itself). One request reaches the
//   endpoint, both clients read the same answer.
// - The key is scoped to the account (its slot) and the route (the operation in its name): the same key on
//   another route or account is another key. The same key on this route with another request (another hook or
//   attempt, another body: the fingerprint) is 409 IDEMPOTENCY_CONFLICT, and queues nothing.
// - A request refused before the event is queued (400, 404, or a send-again's 409 for an erased event) writes
//   no key: its retry is judged again, as Stripe does for a request that did not run. So is a retry's: the hook
//   and the attempt must still be there (404 otherwise), and a send-again whose event was erased meanwhile
//   answers 409.
// - Kept as long as an event id's key (24 h). Its Redis name holds a SHA-256 of the client's key, never the key
//   itself, so any text of up to 255 characters without control characters is a key, whatever it contains.

export const IDEMPOTENCY_KEY = 'Idempotency-Key';
const MAX_LENGTH = 255;
// C0 controls, DEL and C1 controls, in the key's text (keyText).
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * The key as the client wrote it: Node hands a header value over as Latin-1, one character a byte, so a UTF-8
 * key (`ключ`) would read as other characters, some of them C1 controls. Bytes that are UTF-8 are read as
 * UTF-8; others (a Latin-1 client's `é`) stay as they came.
 */
function keyText(header: string): string {
  const bytes = Buffer.from(header, 'latin1');
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? text : header;
}

/** The header in the OpenAPI document of every idempotent route. */
export const IDEMPOTENCY_KEY_HEADER: HeaderDoc = {
  name: IDEMPOTENCY_KEY,
  description:
    'Makes a retry safe: the same key (on this route of this account) within 24 hours answers the first ' +
    "request's status and body again and sends nothing; with another request (another hook, attempt or body) " +
    'it answers 409 IDEMPOTENCY_CONFLICT. 1 to 255 characters, no control characters (e.g. a UUID).',
  schema: { minLength: 1, maxLength: MAX_LENGTH },
};

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** What is wrong with a key as given, or undefined. */
function keyProblem(key: string): string | undefined {
  const characters = [...key].length;
  if (characters === 0 || characters > MAX_LENGTH) return `must be 1 to ${MAX_LENGTH} characters`;
  if (CONTROL.test(key)) return 'must not contain control characters';
  return undefined;
}

/**
 * A route that does not honour the header refuses it: a client retrying a publish or a creation with a key,
 * as Stripe's API would let it, got a second event or a second hook without a word. A publish names its own
 * way to be retried safely (the event's `id`).
 */
export function refuseUnhonouredKey(request: FastifyRequest, operationId: string): void {
  if (request.headers['idempotency-key'] === undefined) return;
  throw validationError([
    {
      field: IDEMPOTENCY_KEY,
      message:
        operationId === 'publishEvent'
          ? 'is not taken when publishing: give the event an "id" instead (the same id within 24 hours answers ' +
            'the first request again and queues nothing)'
          : 'is not taken by this route: only a test and a send-again take it',
    },
  ]);
}

/**
 * The request's key as the producer keeps it, or undefined when it gave none; a 400 naming the header when it
 * gave a bad one, or two (two keys would make a retry with either one ambiguous).
 * `pathValues`: the route's path parameters in order; `body`: the body as validated.
 */
export function requestKeyOf(
  request: FastifyRequest,
  operationId: string,
  pathValues: readonly string[],
  body: unknown,
): RequestKey | undefined {
  const raw = request.raw.rawHeaders;
  let given = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === 'idempotency-key') given += 1;
  if (given === 0) return undefined;
  const header = request.headers['idempotency-key'];
  if (given > 1 || typeof header !== 'string')
    throw validationError([{ field: IDEMPOTENCY_KEY, message: 'must be given once' }]);
  const key = keyText(header);
  const problem = keyProblem(key);
  if (problem) throw validationError([{ field: IDEMPOTENCY_KEY, message: problem }]);
  return {
    name: `${operationId}:${sha256(key)}`,
    fingerprint: sha256(JSON.stringify([operationId, pathValues, body ?? null])),
  };
}
