import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/** Kept for the delivery log. */
export const EXCERPT_BYTES = 4 * 1024;
/** Read (and thrown away) past the excerpt so a short body leaves the connection reusable; no further. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Reads a response body for its first `keepBytes` (4 KiB by default, 64 KiB at most), draining at most 64 KiB
 * and never past `deadline`. A body left
 * unread stalls the next request on a keep-alive connection, and reading a huge one whole costs memory;
 * destroying the stream at either limit closes the connection instead. Stream errors only end the read:
 * the body never changes an attempt's outcome. Resolves with the excerpt as UTF-8 (a character cut at
 * its edge is dropped, not mangled).
 */
export function readCappedBody(
  body: Readable,
  deadline: AbortSignal,
  keepBytes: number = EXCERPT_BYTES,
): Promise<string> {
  const keepAtMost = Math.min(keepBytes, MAX_BODY_BYTES);
  return new Promise((resolve) => {
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let readBytes = 0;
    let done = false;

    const finish = (destroy: boolean) => {
      if (done) return;
      done = true;
      body.off('data', onData);
      deadline.removeEventListener('abort', onDeadline);
      if (destroy) body.destroy();
      resolve(new StringDecoder('utf8').write(Buffer.concat(kept)));
    };
    const onData = (chunk: Buffer) => {
      if (keptBytes < keepAtMost) {
        const slice = chunk.subarray(0, keepAtMost - keptBytes);
        kept.push(slice);
        keptBytes += slice.length;
      }
      readBytes += chunk.length;
      if (readBytes >= MAX_BODY_BYTES) finish(true);
    };
    const onDeadline = () => finish(true);

    // A listener stays on 'error' for good: a destroyed body may still emit one, which must not crash.
    body.on('error', () => finish(false));
    body.on('end', () => finish(false));
    body.on('close', () => finish(false));
    body.on('data', onData);
    if (deadline.aborted) finish(true);
    else deadline.addEventListener('abort', onDeadline, { once: true });
  });
}
