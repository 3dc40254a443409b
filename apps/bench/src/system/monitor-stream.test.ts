import { parseMonitorLine, respCommand } from './monitor-stream';

describe('MONITOR lines', () => {
  it('names the client and the command', () => {
    expect(parseMonitorLine('+1712098529.327989 [0 127.0.0.1:62763] "INFO"')).toEqual({
      source: '127.0.0.1:62763',
      command: 'info',
    });
  });

  it('reads the command of a line with arguments, quotes and escapes in them', () => {
    expect(
      parseMonitorLine('+1712098529.327989 [3 127.0.0.1:1234] "evalsha" "abc" "1" "a \\"quoted\\" arg"'),
    ).toEqual({ source: '127.0.0.1:1234', command: 'evalsha' });
  });

  it('names commands a script ran as lua', () => {
    expect(parseMonitorLine('+1712098529.327989 [0 lua] "hget" "k" "f"')).toEqual({
      source: 'lua',
      command: 'hget',
    });
  });

  it('ignores anything that is not a monitor line', () => {
    expect(parseMonitorLine('+OK')).toBeUndefined();
    expect(parseMonitorLine('-ERR unknown command')).toBeUndefined();
  });

  it('writes commands as RESP arrays, counting bytes, not characters', () => {
    expect(respCommand('MONITOR')).toBe('*1\r\n$7\r\nMONITOR\r\n');
    expect(respCommand('AUTH', 'pé')).toBe('*2\r\n$4\r\nAUTH\r\n$3\r\npé\r\n');
  });
});
