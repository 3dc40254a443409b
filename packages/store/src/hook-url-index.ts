import type { RedisKeys } from '@hookline/redis';
import type { Redis } from 'ioredis';
import { STORE_SCRIPTS } from './scripts';

/** Hooks looked at per slice of a search, and per batch of the walk over hooks made before the index. */
const SLICE = 1000;

/** A hook's URL for the index: with the version of the hook's record that has it. */
export interface IndexedUrl {
  readonly hookId: string;
  readonly version: number;
  readonly url: string;
}

/** `A-Z` only: URLs are ASCII (as parsed), so the index and the search's text agree on what lower case is. */
const lowerAscii = (text: string): string => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

/**
 * Whether `text` is in the hook's URL, the scheme and host in any case (a URL's host has no case; the stored
 * URL is parsed, so its own are lower case) and the rest as typed (paths and queries are case-sensitive).
 */
export function urlContains(url: string, text: string): boolean {
  if (text === '') return false;
  const hostEnd = url.indexOf('/', url.indexOf('://') + 3);
  const caseless = hostEnd < 0 ? url.length : hostEnd;
  const lowerUrl = lowerAscii(url);
  const lowerText = lowerAscii(text);
  for (let at = lowerUrl.indexOf(lowerText); at >= 0; at = lowerUrl.indexOf(lowerText, at + 1)) {
    let same = true;
    for (let i = Math.max(at, caseless); same && i < at + text.length; i++) same = url[i] === text[i - at];
    if (same) return true;
  }
  return false;
}

/**
 * The index of every hook's endpoint URL (`hookUrls`), for the admin area's search by URL. The hooks' records
 * live in one slot each, so finding a URL among them would read every record into the process; this one hash
 * (about 130 bytes a hook) is searched inside Redis a slice at a time (a few ms per 1,000 hooks), and only the
 * hooks whose URL contains the text come back. It is written after
 * each step that gives a hook its URL (create, update) and cleared when the hook goes, newest version winning;
 * an entry left behind by a step that raced a delete is dropped when a search or the walk meets it.
 */
export class HookUrlIndex {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  async set(urls: readonly IndexedUrl[]): Promise<void> {
    if (urls.length === 0) return;
    await STORE_SCRIPTS.hookUrlSet.run(
      this.redis,
      [this.keys.hookUrls()],
      // In lower case (ASCII, as the search's text): the search compares them plainly, in Redis.
      urls.flatMap((u) => [u.hookId, u.version, lowerAscii(u.url)]),
    );
  }

  async remove(...hookIds: string[]): Promise<void> {
    if (hookIds.length > 0) await this.redis.hdel(this.keys.hookUrls(), ...hookIds);
  }

  /** One slice of a search: the hooks whose URL contains `text` in any case, and where the next slice starts. */
  async slice(cursor: string, text: string): Promise<{ next: string; hookIds: string[] }> {
    const [next, hookIds] = (await STORE_SCRIPTS.hookUrlScan.run(
      this.redis,
      [this.keys.hookUrls()],
      [cursor, SLICE, lowerAscii(text)],
    )) as [string, string[]];
    return { next, hookIds };
  }

  /** Whether the hooks made before the index have been added to it (`walk` finished once). */
  async built(): Promise<boolean> {
    return (await this.redis.exists(this.keys.hookUrlsBuilt())) === 1;
  }

  /**
   * Adds the hooks the index lacks (those made before it existed, by a process of an earlier version, or whose
   * step was cut short by a crash) and drops the entries of hooks that are gone, a batch at a time; nothing
   * when it was built once and has as many entries as there are hooks. Safe to run beside changes and beside
   * another walk: an entry is only ever replaced by a newer version's.
   */
  async walk(): Promise<void> {
    const { redis, keys } = this;
    const [built, indexed, hooks] = await Promise.all([
      this.built(),
      redis.hlen(keys.hookUrls()),
      redis.scard(keys.allHooks()),
    ]);
    if (built && indexed === hooks) return;
    let cursor = '0';
    do {
      const [next, hookIds] = await redis.sscan(keys.allHooks(), cursor, 'COUNT', SLICE);
      // Sent together, not as one pipeline: the records may live on different shards of a Redis Cluster.
      const records = await Promise.all(
        hookIds.map((id) => redis.hmget(keys.hookRecord(id), 'url', 'version')),
      );
      // A record without a version (from before versions) is older than its first change, which makes it 1.
      await this.set(
        hookIds.flatMap((hookId, i) => {
          const [url, version] = records[i] ?? [];
          return url ? [{ hookId, version: Number(version ?? '0'), url }] : [];
        }),
      );
      cursor = next;
    } while (cursor !== '0');
    do {
      const [next, flat] = await redis.hscan(keys.hookUrls(), cursor, 'COUNT', SLICE);
      const hookIds = flat.filter((_, i) => i % 2 === 0);
      const present = hookIds.length > 0 ? await redis.smismember(keys.allHooks(), ...hookIds) : [];
      // An entry is written after its hook joins the set of every hook, so one whose hook is not there is gone.
      await this.remove(...hookIds.filter((_, i) => present[i] === 0));
      cursor = next;
    } while (cursor !== '0');
    await redis.set(keys.hookUrlsBuilt(), '1');
  }
}
