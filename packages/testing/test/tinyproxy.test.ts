import { connect } from 'node:net';
import { startTinyproxy, type Tinyproxy } from '../src';

let proxy: Tinyproxy;
beforeEach(async () => {
  proxy = await startTinyproxy({ connectPorts: [443] });
});
afterEach(() => proxy.close());

const refuses = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

describe('the tinyproxy fixture', () => {
  it('stops a proxy that does not act on SIGTERM (here: a stopped process), and its port then refuses', async () => {
    process.kill(proxy.pid()!, 'SIGSTOP');
    await proxy.stop();
    expect(await refuses(proxy.port)).toBe(true);
  });

  it('stops at once when the proxy was already killed from outside', async () => {
    const pid = proxy.pid()!;
    process.kill(pid, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 200));
    await proxy.stop();
    expect(proxy.pid()).toBeUndefined();
    expect(await refuses(proxy.port)).toBe(true);
  });

  it('starts again on the same port after a stop', async () => {
    await proxy.stop();
    await proxy.start();
    expect(await refuses(proxy.port)).toBe(false);
  });
});
