import { parseCpuSeconds, parseMachineBusySeconds, parseRssMb, parseTcpTable } from './proc';

describe('/proc parsing', () => {
  it('reads user + system time even when the command name has spaces', () => {
    const stat =
      '4242 (node (worker) x) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 11 0 100 1000 500';
    expect(parseCpuSeconds(stat)).toBe(3);
  });

  it('counts every CPU state but idle and iowait as busy', () => {
    expect(parseMachineBusySeconds('cpu  100 10 50 9000 40 5 5 0 0 0\ncpu0 1 2 3\n')).toBe(1.7);
  });

  it('reads resident memory in MB', () => {
    expect(parseRssMb('Name:\tnode\nVmRSS:\t  102400 kB\nVmSwap:\t0 kB\n')).toBe(100);
  });

  it('finds established connections and their local address', () => {
    const table = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:D431 0100007F:18EB 01 00000000:00000000 00:00000000 00000000     0        0 777 1 0',
      '   1: 00000000:18EB 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 778 1 0',
    ].join('\n');
    expect(parseTcpTable(table)).toEqual([
      { local: '127.0.0.1:54321', remotePort: 6379, established: true, inode: '777' },
      { local: '0.0.0.0:6379', remotePort: 0, established: false, inode: '778' },
    ]);
  });
});
