import { readFileSync } from 'node:fs';
import { readdir, readFile, readlink } from 'node:fs/promises';

// Linux /proc readers: CPU time and resident memory of a process, and which of its sockets go to Redis.
// Reading the kernel's tables, rather than counting CLIENT LIST before and after, keeps the figures right
// while other programs (test runs) share the same Redis.

/** USER_HZ: the unit of utime/stime in /proc/<pid>/stat; 100 on every Linux this runs on. */
const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) from the text of /proc/<pid>/stat. */
export function parseCpuSeconds(stat: string): number {
  // Field 2 (the command) may contain spaces and parentheses: count fields after its closing ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

export function parseRssMb(status: string): number {
  const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
  return kb === undefined ? 0 : Math.round(Number(kb) / 102.4) / 10;
}

export interface TcpSocket {
  readonly local: string;
  readonly remotePort: number;
  readonly established: boolean;
  readonly inode: string;
}

function hexAddress(hex: string): string {
  if (hex.length === 8) return [3, 2, 1, 0].map((i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16)).join('.');
  // IPv6 is four little-endian words; only loopback and IPv4-mapped loopback matter here.
  if (hex === '00000000000000000000000001000000') return '::1';
  if (hex.startsWith('0000000000000000FFFF0000')) return hexAddress(hex.slice(24));
  return hex;
}

/** Rows of /proc/net/tcp or /proc/net/tcp6. */
export function parseTcpTable(table: string): TcpSocket[] {
  return table
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols.length > 9)
    .map((cols) => {
      const [localHex, localPort] = cols[1]!.split(':');
      const remotePort = parseInt(cols[2]!.split(':')[1]!, 16);
      return {
        local: `${hexAddress(localHex!)}:${parseInt(localPort!, 16)}`,
        remotePort,
        established: cols[3] === '01',
        inode: cols[9]!,
      };
    });
}

/** Busy CPU seconds of the whole machine (all cores) from the text of /proc/stat. */
export function parseMachineBusySeconds(stat: string): number {
  const [, ...ticks] = (stat.split('\n')[0] ?? '').trim().split(/\s+/);
  // user nice system idle iowait irq softirq steal: everything but idle and iowait is busy.
  const busy = ticks.slice(0, 8).reduce((sum, t, i) => (i === 3 || i === 4 ? sum : sum + Number(t)), 0);
  return busy / TICKS_PER_SECOND;
}

export async function machineBusySeconds(): Promise<number> {
  return parseMachineBusySeconds(await readFile('/proc/stat', 'utf8'));
}

/**
 * CPU seconds (user + system) of a process, read synchronously: a few µs, and independent of how busy the
 * event loop is, so that a measured window's first and last readings are taken at its edges. Undefined once
 * the process has gone.
 */
export function cpuSecondsNow(pid: number): number | undefined {
  try {
    return parseCpuSeconds(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

export async function rssMb(pid: number): Promise<number> {
  return parseRssMb(await readFile(`/proc/${pid}/status`, 'utf8'));
}

async function socketInodes(pid: number): Promise<Set<string>> {
  const inodes = new Set<string>();
  for (const fd of await readdir(`/proc/${pid}/fd`).catch(() => [])) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode) inodes.add(inode);
  }
  return inodes;
}

/** Local addresses ("127.0.0.1:54321", as Redis names its clients) of a process's open Redis connections. */
export async function redisConnectionsOf(pid: number, redisPort: number): Promise<string[]> {
  const inodes = await socketInodes(pid);
  const tables = await Promise.all(
    ['/proc/net/tcp', '/proc/net/tcp6'].map((f) => readFile(f, 'utf8').catch(() => '')),
  );
  return tables
    .flatMap(parseTcpTable)
    .filter((s) => s.established && s.remotePort === redisPort && inodes.has(s.inode))
    .map((s) => s.local);
}
