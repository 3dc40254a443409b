import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, type ProcessRole } from '@hookline/config';
import { STOP_BOUND_MS } from '../../src/stop-bounds';

const COMPOSE = readFileSync(join(__dirname, '../../../../docker-compose.yml'), 'utf8');

/** Each service's `stop_grace_period` in ms (Docker's default, 10 s, when it has none). */
function graceOf(service: string): number {
  const block = new RegExp(`^  ${service}:\\n((?:    .*\\n|\\s*\\n)*)`, 'm').exec(COMPOSE)?.[1];
  if (block === undefined) throw new Error(`no service ${service} in docker-compose.yml`);
  const grace = /^    stop_grace_period: (\d+)s$/m.exec(block)?.[1];
  return grace === undefined ? 10_000 : Number(grace) * 1000;
}

// A process still within its own stop bound is finishing its work (the drain, the attempt in flight, the
// monitor's rounds): a Docker grace no longer than that bound kills it there, as SIGKILL would.
describe('docker-compose.yml stop grace', () => {
  const env = {
    HOOKLINE_SECRET_KEY: 'a'.repeat(64),
    HOOKLINE_API_KEY: 'k'.repeat(16),
    DATABASE_URL: 'postgres://h/db',
  };
  it.each([
    ['api', 'api'],
    ['worker', 'worker'],
    ['monitor', 'monitor'],
  ] as const)(
    'of %s exceeds its stop bound (the file sets no drain or deadline: their defaults)',
    (service, role: ProcessRole) => {
      const bound = STOP_BOUND_MS[role](loadConfig(env, role));
      expect(graceOf(service)).toBeGreaterThan(bound);
    },
  );
});
