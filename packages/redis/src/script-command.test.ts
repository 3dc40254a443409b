import { Command } from 'ioredis';
import { useRedis } from '@hookline/testing';
import { LuaScript } from './lua-script';
import { encodeCommand, ScriptCommand } from './script-command';

const ioredisBytes = (name: string, args: (string | number | Buffer)[]) =>
  Buffer.from(new Command(name, args).toWritable({}) as Buffer | string);
const ourBytes = (name: string, args: (string | number | Buffer)[]) =>
  Buffer.from(new ScriptCommand(name, args).toWritable({}) as Buffer | string);

describe('a script command', () => {
  const ctx = useRedis('script-command');

  it.each([
    [
      'binary, text, numbers and empties',
      ['sha', 2, 'k1', 'k2', Buffer.from([0xde, 0, 0xff]), '', Buffer.alloc(0), 1795793204766, -1.5],
    ],
    ['multibyte text beside binary', ['sha', 0, 'é中🙂', Buffer.from('x'), 'a'.repeat(100_123)]],
    [
      'ten arguments and more (two-digit counts)',
      ['sha', 1, ...Array.from({ length: 12 }, (_, i) => `${i}`), Buffer.from([1])],
    ],
  ])('with %s: the bytes ioredis writes itself', (_, args) => {
    expect(ourBytes('evalsha', args).equals(ioredisBytes('evalsha', args))).toBe(true);
  });

  it('of text alone is left to ioredis (one string)', () => {
    const args = ['sha', 1, 'key', 'é'];
    expect(new ScriptCommand('evalsha', args).toWritable({})).toBe(
      new Command('evalsha', args).toWritable({}),
    );
  });

  it('encodes a bulk string of a length with more than five digits', () => {
    const big = Buffer.alloc(123_456, 7);
    const bytes = encodeCommand('eval', [big]);
    expect(bytes.subarray(0, 23).toString('latin1')).toBe('*2\r\n$4\r\neval\r\n$123456\r\n');
    expect(bytes.length).toBe(23 + big.length + 2);
  });

  it('reaches Redis whole: binary and multibyte arguments come back byte for byte', async () => {
    const script = new LuaScript('echo', `-- ${ctx.prefix}\nreturn {KEYS[1], ARGV[1], ARGV[2], ARGV[3]}`);
    const binary = Buffer.from([0xde, 0x00, 0x05, 0xa8, 0xff]);
    // First run: NOSCRIPT, then EVAL with the source; second run: EVALSHA.
    for (let i = 0; i < 2; i++) {
      const reply = (await script.run(ctx.redis, [`${ctx.prefix}:k`], [binary, 'é中🙂', 42])) as string[];
      expect(reply).toEqual([`${ctx.prefix}:k`, binary.toString('utf8'), 'é中🙂', '42']);
    }
    const raw = (await ctx.redis.sendCommand(
      new ScriptCommand('eval', ['return ARGV[1]', 0, binary, 'é'], { replyEncoding: null }),
    )) as Buffer;
    expect(raw.equals(binary)).toBe(true);
  });
});
