import type { Cluster, Redis } from 'ioredis';

type Client = Redis | Cluster;

/**
 * Makes the duplicates of `connection` start with the Lua scripts already defined on it. BullMQ gives every
 * Worker a blocking connection of its own, `connection.duplicate()`, and defines its ~50 scripts on each: for
 * every script and every connection ioredis hashes the whole source and builds two functions, although a
 * blocking connection only waits on BZPOPMIN. That was about 40% of the CPU of attaching a hook (measured: 500
 * Workers, 2.4–2.9 → 1.5–1.6 ms each) and ~60 KB of heap per attached hook. BullMQ defines a script only when
 * the client lacks it, so a duplicate that shares the parent's script functions (they act on whichever client
 * they are called on) is left as it is.
 */
export function shareScriptsWithDuplicates<T extends Client>(connection: T): T {
  const parent = connection as unknown as Record<string, unknown> & { scriptsSet: Record<string, unknown> };
  const duplicate = connection.duplicate.bind(connection) as (...args: unknown[]) => Client;
  (connection as { duplicate: unknown }).duplicate = (...args: unknown[]) => {
    const copy = duplicate(...args) as unknown as Record<string, unknown>;
    // Not into the copy's scriptsSet: each multi()/pipeline() on a client copies its whole scriptsSet.
    for (const name of Object.keys(parent.scriptsSet)) {
      copy[name] = parent[name];
      copy[`${name}Buffer`] = parent[`${name}Buffer`];
    }
    return copy;
  };
  return connection;
}
