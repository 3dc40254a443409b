import { join } from 'node:path';
import { scriptFolderProblems } from '@hookline/redis';
import { useRedis } from '@hookline/testing';
import { ENGINE_SCRIPTS } from './scripts';

describe("the engine's Lua scripts", () => {
  const ctx = useRedis('engine-scripts');

  it('every file is in the catalogue, says its KEYS and compiles', async () => {
    expect(await scriptFolderProblems(join(__dirname, 'scripts'), ENGINE_SCRIPTS, ctx.redis)).toEqual([]);
  });
});
