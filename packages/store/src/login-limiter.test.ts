import { redisKeys } from '@hookline/redis';
import { useRedis } from '@hookline/testing';
import { LoginLimiter } from './login-limiter';

describe('login limiter', () => {
  const ctx = useRedis('login');

  it('refuses an email after 5 failures in the window, whatever the address; success resets the email', async () => {
    const limiter = new LoginLimiter(ctx.redis, redisKeys(ctx.prefix));
    for (let i = 0; i < 4; i += 1) await limiter.recordFailure('Ops@Acme.test', `10.0.0.${i}`);
    await expect(limiter.check('ops@acme.test', '192.0.2.1')).resolves.toEqual({ allowed: true });
    await limiter.recordSuccess('ops@acme.test', '192.0.2.1');
    for (let i = 0; i < 5; i += 1) await limiter.recordFailure('ops@acme.test', `10.0.0.${i}`);
    const gate = await limiter.check(' OPS@acme.test ', '192.0.2.1');
    expect(gate.allowed).toBe(false);
    expect(!gate.allowed && gate.retryAfterSeconds).toBeGreaterThan(14 * 60);
    await expect(limiter.check('someone-else@acme.test', '192.0.2.1')).resolves.toEqual({ allowed: true });
  });

  it('refuses an address after 20 failures across many emails', async () => {
    const limiter = new LoginLimiter(ctx.redis, redisKeys(ctx.prefix));
    for (let i = 0; i < 20; i += 1) await limiter.recordFailure(`user${i}@acme.test`, '192.0.2.7');
    await expect(limiter.check('fresh@acme.test', '192.0.2.7')).resolves.toMatchObject({ allowed: false });
    await expect(limiter.check('fresh@acme.test', '192.0.2.8')).resolves.toEqual({ allowed: true });
  });

  it('counts the address alone when there is no email (the admin area)', async () => {
    const limiter = new LoginLimiter(ctx.redis, redisKeys(ctx.prefix));
    for (let i = 0; i < 19; i += 1) await limiter.recordFailure(undefined, '192.0.2.9');
    await expect(limiter.check(undefined, '192.0.2.9')).resolves.toEqual({ allowed: true });
    await limiter.recordFailure(undefined, '192.0.2.9');
    await expect(limiter.check(undefined, '192.0.2.9')).resolves.toMatchObject({ allowed: false });
    await expect(limiter.check(undefined, '192.0.2.10')).resolves.toEqual({ allowed: true });
  });
});
