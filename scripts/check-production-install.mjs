// Checks that a production install (dependencies only, as the Docker image has: scripts/install-production.sh)
// can load every production entry point: follows the built files' requires from each entry point, through the
// workspace's packages, and reports every module that does not resolve. A package imported at run time but
// declared as a devDependency resolves in a development install (every package is linked there) and only fails
// in production, when the process starts; this finds it without starting anything.
//
//   node scripts/check-production-install.mjs [repo dir]   (after `pnpm build` and a production install)
import { readFileSync } from 'node:fs';
import { createRequire, builtinModules } from 'node:module';
import { join, relative, resolve, sep } from 'node:path';

const ENTRY_POINTS = ['http-main.js', 'worker-main.js', 'monitor-main.js'];
const root = resolve(process.argv[2] ?? '.');
const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
// require('x') and import('x') of a literal, as tsc writes them into dist.
const SPECIFIER = /\b(?:require|import)\(\s*["']([^"']+)["']\s*\)/g;

// The workspace's own files are followed (their requires are the ones a wrong package.json breaks); a package
// from the registry is only resolved, since its own dependencies are its installer's business. Node resolves a
// workspace package's link to its real path, outside node_modules.
const isWorkspaceFile = (file) => !file.includes(`${sep}node_modules${sep}`);

const seen = new Set();
const problems = [];

function follow(file, via) {
  if (seen.has(file)) return;
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  const requireFrom = createRequire(file);
  for (const [, specifier] of source.matchAll(SPECIFIER)) {
    if (builtins.has(specifier)) continue;
    let resolved;
    try {
      resolved = requireFrom.resolve(specifier);
    } catch {
      problems.push(
        `${relative(root, file)} requires ${specifier}, which does not resolve (reached from ${via})`,
      );
      continue;
    }
    if (resolved.endsWith('.js') && isWorkspaceFile(resolved)) follow(resolved, via);
  }
}

for (const entry of ENTRY_POINTS) {
  const file = join(root, 'apps', 'hookline', 'dist', entry);
  follow(file, entry);
}

if (problems.length > 0) {
  console.error(`production install: ${problems.length} module(s) missing:\n  ${problems.join('\n  ')}`);
  console.error(
    'A package imported at run time must be in its package.json "dependencies", not devDependencies.',
  );
  process.exit(1);
}
console.log(`production install: ${seen.size} files of ${ENTRY_POINTS.join(', ')} load their modules`);
