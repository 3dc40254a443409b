import { join } from 'node:path';
import { scriptFolderProblems } from '@hookline/redis';
import { useRedis } from '@hookline/testing';
import { STORE_SCRIPTS } from './scripts';

describe("the store's Lua scripts", () => {
  const ctx = useRedis('scripts');

  it('every file is in the catalogue, says its KEYS and compiles', async () => {
    expect(await scriptFolderProblems(join(__dirname, 'scripts'), STORE_SCRIPTS, ctx.redis)).toEqual([]);
  });
});
