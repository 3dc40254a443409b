// Which errors of the history's PostgreSQL mean "the database cannot serve us right now" (stopped, restarting,
// out of reach, refusing connections), as opposed to a bug. The HTTP tier answers them 503
// HISTORY_UNAVAILABLE: its Redis-outage test alone would read a refused socket to PostgreSQL as Redis being down.

import { OUT_OF_REACH_SOCKET_CODES } from '@hookline/core';

// node-postgres' own words for a connection that never came or was cut (sockets: core's list).
const CLIENT_MESSAGES =
  /timeout exceeded when trying to connect|Connection terminated|Client has encountered a connection error|Cannot use a pool after calling end/i;
// SQLSTATE: class 08 (connection exception), 57P01–57P03 (shut down, crashed, starting), 53300 (too many
// connections).
const SERVER_STATES = /^(08...|57P0[1-3]|53300)$/;

const unreachable = new WeakSet<object>();

/** Marks `error` when it says the database is out of reach; returns it, to be thrown. */
export function markIfUnreachable(error: unknown): unknown {
  if (typeof error !== 'object' || error === null) return error;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (
    (typeof code === 'string' && (OUT_OF_REACH_SOCKET_CODES.has(code) || SERVER_STATES.test(code))) ||
    (typeof message === 'string' && CLIENT_MESSAGES.test(message))
  )
    unreachable.add(error);
  return error;
}

/** Whether `error` came from the history's database being out of reach (see markIfUnreachable). */
export const isHistoryUnreachable = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && unreachable.has(error);
