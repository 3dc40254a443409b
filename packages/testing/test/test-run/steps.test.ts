import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSteps, type Command } from '../../src/test-run/steps';

// The runner's steps with real processes (sh): one after the other, or side by side with `together`.
describe('the steps of pnpm test', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'hookline-steps-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A command that writes `<name> start` and, unless killed first, `<name> end` to the shared log. */
  const sh = (name: string, script: string): Command => ({
    name,
    program: 'sh',
    args: [
      '-c',
      `echo "${name} start" >> ${join(dir, 'log')}; ${script}; code=$?; echo "${name} end" >> ${join(dir, 'log')}; exit $code`,
    ],
  });
  const log = () => readFileSync(join(dir, 'log'), 'utf8').trim().split('\n');
  const control = (seen: (readonly ChildProcess[])[] = []) => ({
    interruptedBy: () => undefined,
    current: (children: readonly ChildProcess[]) => void seen.push(children),
  });

  it('runs a together step side by side and passes when every command passes', async () => {
    const seen: (readonly ChildProcess[])[] = [];
    const outcome = await runSteps(
      [sh('first', 'true'), { name: 'fleet', together: [sh('a', 'sleep 0.5'), sh('b', 'sleep 0.5')] }],
      process.env,
      control(seen),
    );
    expect(outcome).toEqual({ kind: 'passed' });
    // Both started before either ended; the signal handler could reach both.
    expect(log().slice(0, 3)).toEqual(['first start', 'first end', expect.stringMatching(/^[ab] start$/)]);
    expect(log()[3]).toMatch(/^[ab] start$/);
    expect(seen.map((children) => children.length)).toEqual([1, 0, 2, 0]);
  });

  it('stops the other commands of a together step when one fails, names it, and runs nothing after', async () => {
    const outcome = await runSteps(
      [
        { name: 'fleet', together: [sh('slow', 'sleep 30'), sh('broken', 'sleep 0.3; (exit 4)')] },
        sh('after', 'true'),
      ],
      process.env,
      control(),
    );
    expect(outcome).toEqual({ kind: 'failed', step: 'broken', code: 4 });
    expect(log()).not.toContain('slow end');
    expect(log()).not.toContain('after start');
  }, 10_000);

  it('stops at the first failing step, with its exit code', async () => {
    const outcome = await runSteps([sh('one', '(exit 2)'), sh('two', 'true')], process.env, control());
    expect(outcome).toEqual({ kind: 'failed', step: 'one', code: 2 });
    expect(log()).toEqual(['one start', 'one end']);
  });
});
