import { commandStatsDelta, infoNumber } from './redis-activity';

describe('INFO fields', () => {
  const info = [
    '# Stats',
    'total_connections_received:3561',
    'total_commands_processed:120',
    'used_cpu_sys:12.250000',
    'used_cpu_sys_children:0.5',
    '',
  ].join('\r\n');

  it('reads a whole number and a decimal, with INFO’s CRLF line ends', () => {
    expect(infoNumber(info, 'total_connections_received')).toBe(3561);
    expect(infoNumber(info, 'used_cpu_sys')).toBe(12.25);
  });

  it('matches the whole field name, not a longer one that starts with it', () => {
    expect(infoNumber('used_cpu_sys_children:0.5\r\n', 'used_cpu_sys')).toBeUndefined();
  });

  it('is undefined for a field that is not there', () => {
    expect(infoNumber(info, 'rejected_connections')).toBeUndefined();
  });
});

describe('commandstats delta', () => {
  it('keeps only the commands called within the window', () => {
    const before = new Map([
      ['get', { calls: 10, usec: 100 }],
      ['set', { calls: 5, usec: 50 }],
    ]);
    const after = new Map([
      ['get', { calls: 10, usec: 100 }],
      ['set', { calls: 8, usec: 80 }],
      ['evalsha', { calls: 2, usec: 300 }],
    ]);
    expect([...commandStatsDelta(before, after)]).toEqual([
      ['set', { calls: 3, usec: 30 }],
      ['evalsha', { calls: 2, usec: 300 }],
    ]);
  });
});
