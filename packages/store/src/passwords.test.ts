import { DUMMY_PASSWORD_HASH, hashPassword, verifyPasswordHash } from './passwords';

describe('password hashes', () => {
  it('are scrypt with N=16384 r=8 p=1 and a 16-byte salt, and verify the right password only', async () => {
    const hash = await hashPassword('correct horse battery');
    const [name, n, r, p, salt, digest] = hash.split('$');
    expect([name, n, r, p]).toEqual(['scrypt', '16384', '8', '1']);
    expect(Buffer.from(salt!, 'base64url')).toHaveLength(16);
    expect(Buffer.from(digest!, 'base64url')).toHaveLength(32);
    expect(hash).not.toContain('correct horse');
    await expect(verifyPasswordHash('correct horse battery', hash)).resolves.toBe(true);
    await expect(verifyPasswordHash('correct horse battery!', hash)).resolves.toBe(false);
  });

  it('salt every hash, so one password hashes differently twice', async () => {
    expect(await hashPassword('same password')).not.toBe(await hashPassword('same password'));
  });

  it('reject malformed or absurd stored hashes instead of throwing', async () => {
    for (const stored of [
      '',
      'plain',
      'scrypt$16384$8$1$$',
      'bcrypt$1$2$3$4$5',
      'scrypt$1073741824$8$1$AAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAA',
    ])
      await expect(verifyPasswordHash('anything at all', stored)).resolves.toBe(false);
  });

  it('has a dummy hash with the real parameters that matches nothing', async () => {
    expect(DUMMY_PASSWORD_HASH.startsWith('scrypt$16384$8$1$')).toBe(true);
    await expect(verifyPasswordHash('', DUMMY_PASSWORD_HASH)).resolves.toBe(false);
  });
});
