import { Command } from 'ioredis';

// A script call's bytes, laid out in one pass. Every publish and every delivery runs scripts whose arguments
// mix text and binary (BullMQ's msgpack-packed job options), and for such a command ioredis builds a list of
// pieces (three per binary argument), measures each twice and copies them into a buffer: ≈ 16 µs for an
// accept's 50 arguments, the largest single share of the HTTP tier's own JavaScript in its profile. Here each
// argument is measured once and written straight into the one buffer it ends in (≈ 7 µs). The bytes are the
// same (script-command.test.ts compares them with ioredis' own); a command of text alone, which ioredis sends
// as one string, is left to ioredis.

const STAR = 42;
const DOLLAR = 36;
const CR = 13;
const LF = 10;

const digits = (n: number): number =>
  n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : n < 10_000 ? 4 : n < 100_000 ? 5 : String(n).length;

/** Writes `n`'s decimal digits at `at`; returns the offset after them. */
function writeDecimal(out: Buffer, n: number, at: number): number {
  const end = at + digits(n);
  let rest = n;
  for (let i = end - 1; i >= at; i--) {
    out[i] = 48 + (rest % 10);
    rest = Math.floor(rest / 10);
  }
  return end;
}

/** A `$<length>\r\n<bytes>\r\n` bulk string's size in all. */
const bulkSize = (length: number): number => 1 + digits(length) + 2 + length + 2;

/** RESP for `name` and `args`, exactly as ioredis writes a command with binary arguments. */
export function encodeCommand(name: string, args: readonly (string | Buffer)[]): Buffer {
  const lengths = new Array<number>(args.length);
  let size = 1 + digits(args.length + 1) + 2 + bulkSize(Buffer.byteLength(name));
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    lengths[i] = typeof arg === 'string' ? Buffer.byteLength(arg) : arg.length;
    size += bulkSize(lengths[i]!);
  }
  const out = Buffer.allocUnsafe(size);
  out[0] = STAR;
  let at = writeDecimal(out, args.length + 1, 1);
  out[at++] = CR;
  out[at++] = LF;
  at = writeBulk(out, name, Buffer.byteLength(name), at);
  for (let i = 0; i < args.length; i++) at = writeBulk(out, args[i]!, lengths[i]!, at);
  return out;
}

function writeBulk(out: Buffer, value: string | Buffer, length: number, start: number): number {
  out[start] = DOLLAR;
  let at = writeDecimal(out, length, start + 1);
  out[at++] = CR;
  out[at++] = LF;
  at += typeof value === 'string' ? out.write(value, at, length, 'utf8') : value.copy(out, at);
  out[at++] = CR;
  out[at++] = LF;
  return at;
}

/**
 * An ioredis command written with encodeCommand when it has binary arguments: sent through `sendCommand`,
 * so routing (a Cluster's slot), the offline queue, replies and errors are ioredis' own.
 */
export class ScriptCommand extends Command {
  override toWritable(socket: object): string | Buffer {
    const args = this.args as (string | Buffer)[];
    return args.some((arg) => typeof arg !== 'string')
      ? encodeCommand(this.name, args)
      : super.toWritable(socket);
  }
}
