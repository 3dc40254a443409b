import { useApi } from '../test-support/api-harness';

describe('POST /v1/accounts', () => {
  const api = useApi();

  it('creates an account and answers 201 {id, name}', async () => {
    const res = await api.call('POST', '/v1/accounts', {
      name: '  Acme Telecom ',
      email: 'ops@acme.example',
      password: 'correct horse battery',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({ id: expect.stringMatching(/^acct_/), name: 'Acme Telecom' });
    expect(res.body).not.toContain('correct horse battery');
    expect(await api.deps.store.accounts.get(body.id)).toMatchObject({
      id: body.id,
      email: 'ops@acme.example',
    });
  });

  it.each([
    ['an internationalised address', 'ü@bücher.de', 'ü@bücher.de'],
    ['a one-letter domain label', 'a@b.c', 'a@b.c'],
    ['spaces around it and capitals', '  Ops+Alerts@ACME.example ', 'ops+alerts@acme.example'],
  ])('accepts %s, as the store and the website do', async (_label, email, stored) => {
    const res = await api.call('POST', '/v1/accounts', { name: 'Acme', email });
    expect(res.statusCode).toBe(201);
    expect(await api.deps.store.accounts.get(res.json().id)).toMatchObject({ email: stored });
  });

  it.each([
    ['no domain', 'ops@'],
    ['a space inside', 'o ps@acme.example'],
    ['two @', 'a@b@c.example'],
  ])('refuses an email with %s', async (_label, email) => {
    const res = await api.call('POST', '/v1/accounts', { name: 'Acme', email });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([{ field: 'email', message: 'must be an email address' }]);
  });

  it('names every bad field and creates nothing', async () => {
    const before = await api.keyCount();
    const res = await api.call('POST', '/v1/accounts', {
      name: '',
      email: 'not-an-email',
      password: 'short',
      x: 1,
    });
    expect(res.statusCode).toBe(400);
    const { error } = res.json();
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'email',
      'name',
      'password',
      'x',
    ]);
    expect(res.body).not.toContain('short');
    expect(await api.keyCount()).toBe(before);
  });

  it.each([
    ['a NUL', 'password12345\u0000'],
    ['a control character', 'pass\u0001word12345'],
    ['a line break', 'password\n12345'],
    ['a lone surrogate', 'password12345\ud800'],
  ])(
    'refuses a password with %s (it would not sign in as typed), and creates nothing',
    async (_label, password) => {
      const before = await api.keyCount();
      const res = await api.call('POST', '/v1/accounts', {
        name: 'Acme',
        email: 'pw@acme.example',
        password,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details).toEqual([
        { field: 'password', message: expect.stringMatching(/^must /) },
      ]);
      expect(await api.keyCount()).toBe(before);
    },
  );

  it('refuses a password without an email (nobody could sign in with it), and creates nothing', async () => {
    const before = await api.keyCount();
    const res = await api.call('POST', '/v1/accounts', { name: 'Acme', password: 'long enough password' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([
      { field: 'password', message: 'needs an email: the customer signs in with both' },
    ]);
    expect(await api.keyCount()).toBe(before);
  });

  it('requires a name', async () => {
    const res = await api.call('POST', '/v1/accounts', {});
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([{ field: 'name', message: 'is required' }]);
  });

  it('answers 409 when the email already has an account', async () => {
    await api.call('POST', '/v1/accounts', { name: 'A', email: 'dup@acme.example' });
    const res = await api.call('POST', '/v1/accounts', { name: 'B', email: 'DUP@acme.example' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('CONFLICT');
  });

  it('answers 401 without the operator key, and creates nothing', async () => {
    const before = await api.keyCount();
    const res = await api.call('POST', '/v1/accounts', { name: 'Acme' }, { key: 'wrong-key-wrong-key' });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(await api.keyCount()).toBe(before);
  });
});
