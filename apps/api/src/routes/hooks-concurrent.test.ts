import { useApi } from '../test-support/api-harness';

// Two changes of one hook at once. Each answer was read back after its write, so it could show the other
// change's values, written in between: a caller was told its hook had a URL it never sent.

describe('two PATCHes of one hook at once', () => {
  const api = useApi();

  it('each answer what it wrote, never the other’s values', async () => {
    const acct = await api.createAccount();
    const hook = await api.createHook(acct);
    const url = `/v1/accounts/${acct}/hooks/${hook.id}`;
    const mixed: string[] = [];
    for (let round = 0; round < 40; round++) {
      const changes = [
        {
          url: `https://a.example.com/${round}`,
          description: `a ${round}`,
          format: 'json',
          events: 'all',
        },
        {
          url: `https://b.example.com/${round}`,
          description: `b ${round}`,
          format: 'form',
          events: ['call_created'],
        },
      ] as const;
      const answers = await Promise.all(changes.map((change) => api.call('PATCH', url, change)));
      answers.forEach((res, i) => {
        expect(res.statusCode).toBe(200);
        const { url: sent, description, format, events } = res.json() as Record<string, unknown>;
        const change = changes[i]!;
        if (
          JSON.stringify([sent, description, format, events]) !==
          JSON.stringify([change.url, change.description, change.format, change.events])
        )
          mixed.push(`round ${round}: sent ${change.description}, answered ${String(description)}`);
      });
    }
    expect(mixed).toEqual([]);
    // The record holds one of the two, whole.
    const now = (await api.call('GET', url)).json() as Record<string, unknown>;
    expect([now.url, now.description, now.format].join(' ')).toMatch(
      /^https:\/\/a\.example\.com\/39 a 39 json$|^https:\/\/b\.example\.com\/39 b 39 form$/,
    );
  });
});
