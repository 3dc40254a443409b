import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpRelay {
  readonly port: number;
  /**
   * From now on no byte passes either way, on the connections open and on new ones, which are still taken:
   * what a client sees of a server that is frozen (SIGSTOP) or cut off behind a firewall that drops packets.
   */
  hold(): void;
  close(): Promise<void>;
}

/**
 * A TCP relay on 127.0.0.1 to a real server, for a test that must make a server stop answering when it cannot
 * freeze the server itself (the machine's shared PostgreSQL, which other tests use meanwhile).
 */
export async function startTcpRelay(target: { host: string; port: number }): Promise<TcpRelay> {
  let held = false;
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  // Bytes that arrive while held are dropped, never delivered later: the connection is dead to both ends.
  const forward = (from: Socket, to: Socket) => {
    from.on('data', (chunk: Buffer) => held || to.write(chunk));
    from.on('close', () => to.destroy());
  };
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    track(client);
    track(upstream);
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hold: () => {
      held = true;
    },
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
