import Fastify from 'fastify';
import { listenHttp } from './listen-http';

// A listen that fails because of HOST or PORT says which setting to change.
describe('listenHttp', () => {
  const apps: ReturnType<typeof Fastify>[] = [];
  const app = () => {
    const made = Fastify();
    apps.push(made);
    return made;
  };
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((a) => a.close()));
  });

  it('listens on HOST and PORT', async () => {
    const base = await listenHttp(app(), { HOST: '127.0.0.1', PORT: 0 });
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('names HOST when it is not an address of this machine', async () => {
    // 192.0.2.1 is a documentation address (RFC 5737): no machine has it, and binding to it sends nothing.
    await expect(listenHttp(app(), { HOST: '192.0.2.1', PORT: 0 })).rejects.toThrow(
      /^HOST=192\.0\.2\.1: cannot listen there \(listen EADDRNOTAVAIL.*\); give an address of this machine/,
    );
  });

  it('names HOST when it is a name that does not resolve', async () => {
    // Resolving a made-up name would ask a DNS server outside this machine: the failure is Node's own.
    const unresolved = Object.assign(new Error('getaddrinfo ENOTFOUND notanip'), { code: 'ENOTFOUND' });
    const failing = { listen: () => Promise.reject(unresolved) };
    await expect(listenHttp(failing, { HOST: 'notanip', PORT: 8080 })).rejects.toThrow(
      'HOST=notanip: cannot listen there (getaddrinfo ENOTFOUND notanip); give an address of this machine',
    );
  });

  it('names PORT when another process listens on it', async () => {
    const first = await listenHttp(app(), { HOST: '127.0.0.1', PORT: 0 });
    const port = Number(new URL(first).port);
    await expect(listenHttp(app(), { HOST: '127.0.0.1', PORT: port })).rejects.toThrow(
      new RegExp(
        `^PORT=${port}: another process already listens on it at 127\\.0\\.0\\.1 \\(listen EADDRINUSE`,
      ),
    );
  });
});
