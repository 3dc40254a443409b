import type { Config } from '@hookline/config';
import { NOT_THIS_MACHINE_CODES } from '@hookline/core';

/**
 * Listens on HOST and PORT, and when that fails because of one of them, says which: Node's own message
 * (`getaddrinfo ENOTFOUND notanip`, `listen EADDRINUSE …`) does not name the setting to change.
 */
export async function listenHttp(
  app: { listen(options: { port: number; host: string }): Promise<string> },
  config: Pick<Config, 'HOST' | 'PORT'>,
): Promise<string> {
  const { HOST: host, PORT: port } = config;
  try {
    return await app.listen({ port, host });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Fastify's message repeats the error's name ("Error: listen EADDRINUSE: …").
    const reason = (error instanceof Error ? error.message : String(error)).replace(/^Error: /, '');
    if (code !== undefined && NOT_THIS_MACHINE_CODES.has(code))
      throw new Error(
        `HOST=${host}: cannot listen there (${reason}); give an address of this machine (0.0.0.0 or :: for ` +
          'all of them, 127.0.0.1 for this machine only) or a name that resolves to one',
      );
    if (code === 'EADDRINUSE')
      throw new Error(`PORT=${port}: another process already listens on it at ${host} (${reason})`);
    if (code === 'EACCES')
      throw new Error(
        `PORT=${port}: this process may not listen on it (${reason}); ports below 1024 need privileges`,
      );
    throw error;
  }
}
