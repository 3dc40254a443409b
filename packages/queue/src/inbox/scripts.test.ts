import { join } from 'node:path';
import { scriptFolderProblems } from '@hookline/redis';
import { useRedis } from '@hookline/testing';
import { INBOX_SCRIPTS } from './scripts';

describe("the account inbox's Lua scripts", () => {
  const ctx = useRedis('scripts');

  it('every file is in the catalogue, says its KEYS and compiles', async () => {
    expect(await scriptFolderProblems(join(__dirname, 'scripts'), INBOX_SCRIPTS, ctx.redis)).toEqual([]);
  });
});
