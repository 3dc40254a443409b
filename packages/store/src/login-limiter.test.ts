import { redisKeys } from '@hookline/redis';
import { useRedis } from '@hookline/testing';
import { LoginLimiter } from './login-limiter';

describe('login limiter', () => {
  const ctx = useRedis('login');
  const failures = async (
    limiter: LoginLimiter,
    n: number,
    email: (i: number) => string | undefined,
    ip: (i: number) => string,
  ) => {
    for (let i = 0; i < n; i += 1) expect((await limiter.attempt(email(i), ip(i))).allowed).toBe(true);
  };
  /** Wrong admin passwords (the admin area names no email) from one address. */
  const adminFailures = (limiter: LoginLimiter, n: number, ip: string) =>
    failures(
      limiter,
      n,
      () => undefined,
      () => ip,
    );
  /** Wrong website passwords from one address, each for another email. */
  const siteFailures = (limiter: LoginLimiter, n: number, ip: string) =>
    failures(
      limiter,
      n,
      (i) => `user${i}@acme.test`,
      () => ip,
    );

  it('refuses an email after 5 failures in the window, whatever the address; success resets the email', async () => {
    const limiter = new LoginLimiter(ctx.redis, redisKeys(ctx.prefix));
    await failures(
      limiter,
      4,
      () => 'Ops@Acme.test',
      (i) => `10.0.0.${i}`,
    );
    await expect(limiter.check('ops@acme.test', '192.0.2.1')).resolves.toEqual({ allowed: true });
    const right = await limiter.attempt('ops@acme.test', '192.0.2.1');
    if (right.allowed) await right.succeeded();
    await failures(
      limiter,
      5,
      () => 'ops@acme.test',
      (i) => `10.0.0.${i}`,
    );
    const gate = await limiter.check(' OPS@acme.test ', '192.0.2.1');
    expect(gate.allowed).toBe(false);
    expect(!gate.allowed && gate.retryAfterSeconds).toBeGreaterThan(14 * 60);
    await expect(limiter.attempt(' OPS@acme.test ', '192.0.2.1')).resolves.toMatchObject({ allowed: false });
    await expect(limiter.check('someone-else@acme.test', '192.0.2.1')).resolves.toEqual({ allowed: true });
  });

  it('refuses an address after 20 failures across many emails', async () => {
    const limiter = new LoginLimiter(ctx.redis, redisKeys(ctx.prefix));
    await siteFailures(limiter, 20, '192.0.2.7');
    await expect(limiter.check('fresh@acme.test', '192.0.2.7')).resolves.toMatchObject({ allowed: false });
    await expect(limiter.check('fresh@acme.test', '192.0.2.8')).resolves.toEqual({ allowed: true });
  });

  it('does not count attempts it refused: tries at a locked account leave the address to everyone else', async () => {
    const limiter = new LoginLimiter(ctx.redis, redisKeys(ctx.prefix));
    await failures(
      limiter,
      5,
      () => 'x@acme.test',
      () => '192.0.2.40',
    );
    // x is locked; 15 more tries at it (its owner's right password among them) are refused, never checked.
    for (let i = 0; i < 15; i += 1)
      await expect(limiter.attempt('x@acme.test', '192.0.2.40')).resolves.toMatchObject({ allowed: false });
    await expect(ctx.redis.get(redisKeys(ctx.prefix).loginAttempts('ip:192.0.2.40'))).resolves.toBe('5');
    const y = await limiter.attempt('y@acme.test', '192.0.2.40');
    expect(y.allowed).toBe(true);
  });

  it('never makes again a counter whose window ended before a right password gave its attempt back', async () => {
    const limiter = new LoginLimiter(ctx.redis, redisKeys(ctx.prefix));
    const right = await limiter.attempt('z@acme.test', '192.0.2.41');
    const address = redisKeys(ctx.prefix).loginAttempts('ip:192.0.2.41');
    // The window ends between the attempt and the password's check.
    await ctx.redis.del(address);
    if (right.allowed) await right.succeeded();
    await expect(ctx.redis.exists(address)).resolves.toBe(0);
  });

  it('counts the address alone when there is no email (the admin area)', async () => {
    const limiter = new LoginLimiter(ctx.redis, redisKeys(ctx.prefix));
    await adminFailures(limiter, 19, '192.0.2.9');
    await expect(limiter.check(undefined, '192.0.2.9')).resolves.toEqual({ allowed: true });
    await adminFailures(limiter, 1, '192.0.2.9');
    await expect(limiter.check(undefined, '192.0.2.9')).resolves.toMatchObject({ allowed: false });
    await expect(limiter.check(undefined, '192.0.2.10')).resolves.toEqual({ allowed: true });
  });

  it('counts the admin area and the website apart: one locked out leaves the other open to the address', async () => {
    const limiter = new LoginLimiter(ctx.redis, redisKeys(ctx.prefix));
    await adminFailures(limiter, 20, '192.0.2.30');
    await expect(limiter.check(undefined, '192.0.2.30')).resolves.toMatchObject({ allowed: false });
    await expect(limiter.check('ops@acme.test', '192.0.2.30')).resolves.toEqual({ allowed: true });
    await siteFailures(limiter, 20, '192.0.2.31');
    await expect(limiter.check('fresh@acme.test', '192.0.2.31')).resolves.toMatchObject({ allowed: false });
    await expect(limiter.check(undefined, '192.0.2.31')).resolves.toEqual({ allowed: true });
  });

  it('lets exactly the allowance through when 30 attempts arrive at once, and gives a right one back', async () => {
    const limiter = new LoginLimiter(ctx.redis, redisKeys(ctx.prefix));
    const gates = await Promise.all(
      Array.from({ length: 30 }, (_, i) => limiter.attempt('target@acme.test', `10.1.0.${i}`)),
    );
    expect(gates.filter((g) => g.allowed)).toHaveLength(5);
    const admin = await Promise.all(
      Array.from({ length: 60 }, () => limiter.attempt(undefined, '192.0.2.20')),
    );
    expect(admin.filter((g) => g.allowed)).toHaveLength(20);

    const other = await limiter.attempt(undefined, '192.0.2.21');
    if (other.allowed) await other.succeeded();
    await adminFailures(limiter, 20, '192.0.2.21');
  });
});
