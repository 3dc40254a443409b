import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

// DESIGN.md sends a reader to files by name ("read this before changing a timing or a script"): a file moved
// or renamed without the note leaves them at a dead end. Every file it names must exist, either under this
// package or under the repository's root, or (a bare name like `job-adopt.lua`) somewhere in the repository.

const PACKAGE = join(__dirname, '..');
const ROOT = join(PACKAGE, '..', '..');

/** `a/{x,y}-z.ts` → `a/x-z.ts`, `a/y-z.ts`. */
function expandBraces(path: string): string[] {
  const match = /\{([^}]+)\}/.exec(path);
  if (!match) return [path];
  return match[1]!.split(',').flatMap((choice) => expandBraces(path.replace(match[0], choice)));
}

/** Whether a path (with at most a `*` in its last part) names at least one file. */
function exists(path: string): boolean {
  if (!path.includes('*')) return existsSync(path);
  const dir = dirname(path);
  const pattern = new RegExp(`^${basename(path).replace(/[.]/g, '\\.').replace('*', '.*')}$`);
  return existsSync(dir) && readdirSync(dir).some((name) => pattern.test(name));
}

function filesNamed(name: string, dir = ROOT): boolean {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (['node_modules', 'dist', '.git', '.turbo'].includes(entry.name)) continue;
    if (entry.isDirectory() ? filesNamed(name, join(dir, entry.name)) : entry.name === name) return true;
  }
  return false;
}

describe('the design note', () => {
  const note = readFileSync(join(PACKAGE, 'DESIGN.md'), 'utf8');
  const named = [...note.matchAll(/`([\w./{},*-]+\.(?:ts|lua|md))`/g)].map((m) => m[1]!);

  it('names files', () => {
    expect(named.length).toBeGreaterThan(20);
  });

  it('names only files that exist', () => {
    const missing = named
      .flatMap(expandBraces)
      .filter((path) =>
        path.includes('/') ? !exists(join(PACKAGE, path)) && !exists(join(ROOT, path)) : !filesNamed(path),
      );
    expect(missing).toEqual([]);
  });
});
