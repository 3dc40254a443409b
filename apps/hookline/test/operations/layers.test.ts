import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..', '..');

/** Runs the repository's layering rule (`pnpm run layers`) over a tree of files made for the test. */
function layersOver(files: Record<string, string>): { status: number | null; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-layers-'));
  try {
    writeFileSync(join(dir, 'tsconfig.json'), '{"compilerOptions":{}}');
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const run = spawnSync(
      join(ROOT, 'node_modules', '.bin', 'depcruise'),
      ['packages', 'apps', '--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'err'],
      { cwd: dir, encoding: 'utf8' },
    );
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the layering rule', () => {
  const engine = 'packages/scheduler/src/index.ts';

  it('lets the engine import the layers below it', () => {
    const result = layersOver({
      [engine]: "import { k } from '../../redis/src/index';\nexport const s = k;\n",
      'packages/redis/src/index.ts': 'export const k = 1;\n',
      'packages/queue/src/index.ts': "import { s } from '../../scheduler/src/index';\nexport const q = s;\n",
      'apps/x/src/index.ts': 'export const x = 1;\n',
    });
    expect(result.output).toMatch(/no dependency violations/);
    expect(result.status).toBe(0);
  });

  it('fails on an engine that imports the transport above it, or an app', () => {
    const result = layersOver({
      [engine]:
        "import { q } from '../../queue/src/index';\nimport { w } from '../../../apps/worker/src/index';\nexport const s = q + w;\n",
      'packages/queue/src/index.ts': 'export const q = 1;\n',
      'apps/worker/src/index.ts': 'export const w = 1;\n',
    });
    expect(result.output).toMatch(/layers-scheduler: packages\/scheduler\/src\/index\.ts → packages\/queue/);
    expect(result.output).toMatch(/packages-do-not-import-apps/);
    expect(result.status).not.toBe(0);
  });
});
