import { createServer, type AddressInfo, type Server } from 'node:net';

const HOST = '127.0.0.1';

/**
 * `count` distinct free loopback ports. Each is held open until all are chosen: ports picked one at a time,
 * each released before the next is asked for, can come back twice, and two servers of one fixture then get
 * the same port (one test run's cluster never became healthy so: the second server exited, and the first answered for it).
 */
export async function freePorts(count: number): Promise<number[]> {
  const held: Server[] = [];
  try {
    for (let i = 0; i < count; i++)
      held.push(
        await new Promise<Server>((resolve, reject) => {
          const server = createServer();
          server.once('error', reject);
          server.listen(0, HOST, () => resolve(server));
        }),
      );
    return held.map((server) => (server.address() as AddressInfo).port);
  } finally {
    await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}
