import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';

// A process logging to a pipe whose reader goes away while it stops (`node http-main.js | head`): it still exits,
// within its bound, instead of retrying the broken pipe for ever.
const CHILD = `
  const { createLogger, stopOnSignals } = require(${JSON.stringify(join(__dirname, 'index.ts'))});
  const logger = createLogger('debug', 'stopping-child');
  stopOnSignals(logger, async () => {
    for (let i = 0; i < 200; i++) logger.debug({ i, pad: 'x'.repeat(200) }, 'closing a part');
  }, 5000);
  logger.info('ready');
  setInterval(() => undefined, 1000);
`;

describe('stopping with the log reader gone', () => {
  it('exits after SIGTERM although stdout is a broken pipe', async () => {
    const child = spawn(process.execPath, ['--require', 'tsx/cjs', '-e', CHILD], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = once(child, 'exit');
    try {
      // The reader takes the first line, then goes away, as `head -1` would.
      await once(child.stdout!, 'data');
      child.stdout!.destroy();
      child.kill('SIGTERM');
      const timer = new Promise((resolve) => setTimeout(resolve, 15_000, 'still running'));
      const result = await Promise.race([exited, timer]);
      expect(result).not.toBe('still running');
    } finally {
      child.kill('SIGKILL');
    }
  }, 30_000);
});
