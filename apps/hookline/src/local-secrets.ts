import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface LocalSecrets {
  readonly apiKey: string;
  readonly secretKey: string;
  readonly adminPassword: string;
  readonly demoPassword: string;
}

/**
 * The all-in-one start needs an operator key, an encryption key and an admin password, but a newcomer has
 * none. They are generated once and kept in `.data/secrets.json` (mode 0600), so credentials encrypted
 * yesterday still open today. Production processes never do this: they require the settings.
 */
export function loadOrCreateLocalSecrets(dataDir: string): LocalSecrets {
  const file = join(dataDir, 'secrets.json');
  if (existsSync(file)) return readSecrets(file);
  mkdirSync(dataDir, { recursive: true });
  const secrets: LocalSecrets = {
    apiKey: `hl_${randomBytes(24).toString('base64url')}`,
    secretKey: randomBytes(32).toString('hex'),
    adminPassword: randomBytes(12).toString('base64url'),
    demoPassword: randomBytes(9).toString('base64url'),
  };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

const FIELDS = ['apiKey', 'secretKey', 'adminPassword', 'demoPassword'] as const;

// A file that is not what this start wrote is named, with what to do: it is never replaced silently, since
// the hook credentials sealed with its secretKey open with that key alone.
function readSecrets(file: string): LocalSecrets {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}. ${REPAIR}`);
  }
  const missing = FIELDS.filter(
    (field) => typeof (parsed as Record<string, unknown> | null)?.[field] !== 'string',
  );
  if (missing.length > 0) throw new Error(`${file}: ${missing.join(', ')} missing or not text. ${REPAIR}`);
  return parsed as LocalSecrets;
}

const REPAIR =
  'Mend it, or move it away to have new secrets made (hook credentials sealed with the old secretKey then ' +
  'no longer open).';
