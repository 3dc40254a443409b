import { CHROMIUM } from '../../src/chromium-path';
import { testRun } from '../../src/test-run/run';

// pnpm test's runner with one step in place of the suite. The step starts a child, as `pnpm run` starts a
// shell that starts tsc; the child prints the URLs it was given and its pid, then holds until stopped
// (`hold`) or fails at once with exit code 3 (`fail`). run.test.ts drives it with signals.
// Usage: hold-run.ts <hold|fail> <redis url> <database url>
const [mode = 'hold', redisUrl = '', databaseUrl = ''] = process.argv.slice(2);
const child = `console.log('URLS ' + JSON.stringify([process.env.TEST_REDIS_URL, process.env.TEST_DATABASE_URL, process.pid]));
  ${mode === 'fail' ? 'process.exit(3)' : 'setInterval(() => {}, 1000)'}`;
const step = `const child = require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(child)}], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 1));`;

void testRun({
  steps: [{ name: mode, program: process.execPath, args: ['-e', step] }],
  wanted: { redisUrl, databaseUrl },
  PATH: process.env.PATH ?? '',
  postgresRoots: ['/usr/lib/postgresql'],
  chromium: CHROMIUM,
  env: process.env,
  print: (line) => process.stderr.write(`${line}\n`),
}).then((code) => process.exit(code));
