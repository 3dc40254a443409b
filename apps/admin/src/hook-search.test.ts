import type { AccountView } from '@hookline/store';
import { waitUntil } from '@hookline/testing';
import { useAdmin } from './test-support/admin-harness';
import { URL_MATCHES_LISTED } from './hook-search';

// The admin page's searches by the account's e-mail address and by endpoint URL, as the admin reads them: the
// rows (hook, account, host, each hook linking to its queue page) and the sentence under the forms.

const a = useAdmin();
const { call } = a;

/** The admin area, once it has walked the hooks made before it (at once here: they are all indexed). */
async function mount(): Promise<void> {
  await a.mount();
  await waitUntil(async () => (await a.ctx.redis.exists(a.keys.hookUrlsBuilt())) === 1, 'the walk ended');
}

interface Row {
  readonly hook: string;
  readonly link: string;
  readonly account: string;
  readonly host: string;
}

/** The rows of the "Hooks found" table, and the page's status sentence. */
async function search(query: string): Promise<{ rows: Row[]; status: string | undefined; body: string }> {
  const page = await call('GET', `/admin?${query}`);
  expect(page.statusCode).toBe(200);
  const found = /<h2>Hooks found<\/h2>(.*?)<\/table>/s.exec(page.body)?.[1] ?? '';
  const rows = [
    ...found.matchAll(
      /<tr><td data-label="Hook"><a href="([^"]+)">([^<]*)<\/a><\/td><td data-label="Account">([^<]*)<\/td><td data-label="Host">([^<]*)<\/td>/g,
    ),
  ].map(([, link, hook, account, host]) => ({ hook: hook!, link: link!, account: account!, host: host! }));
  const status = /<p role="status">([^<]*)<\/p>/.exec(page.body)?.[1];
  return { rows, status, body: page.body };
}

const queueLink = (hookId: string) => `/admin/queues/queue/${encodeURIComponent(`hook-{${hookId}}`)}`;

async function hookOf(account: AccountView, url: string, description: string) {
  return a.store.hooks.create(
    account.id,
    { url, format: 'json', auth: { scheme: 'none' }, description },
    'operator',
  );
}

/** The queues Bull Board shows now. */
async function boardQueues(): Promise<string[]> {
  const board = await call('GET', '/admin/queues/api/queues');
  return (JSON.parse(board.body) as { queues: { name: string }[] }).queues.map((q) => q.name).sort();
}

describe('finding hooks by the account’s e-mail address', () => {
  it('lists the account’s hooks, naming it, whatever the case of the address typed', async () => {
    const acme = await a.store.accounts.create({ name: 'Acme Telecom', email: 'Ops@Acme.test' });
    const crm = await hookOf(acme, 'https://crm.acme.test/in', 'CRM');
    const billing = await hookOf(acme, 'https://billing.acme.test/in', 'Billing');
    const other = await a.store.accounts.create({ name: 'Globex', email: 'ops@globex.test' });
    await hookOf(other, 'https://crm.globex.test/in', 'Globex CRM');
    await mount();

    const { rows, status, body } = await search(`email=${encodeURIComponent('  OPS@acme.TEST ')}`);
    expect(status).toBeUndefined();
    expect(rows).toEqual([
      { hook: 'CRM', link: queueLink(crm.id), account: `Acme Telecom (${acme.id})`, host: 'crm.acme.test' },
      {
        hook: 'Billing',
        link: queueLink(billing.id),
        account: `Acme Telecom (${acme.id})`,
        host: 'billing.acme.test',
      },
    ]);
    // The form shows what was searched; the link opens exactly these queues on the board.
    expect(body).toContain('value="  OPS@acme.TEST "');
    const open = /<a href="([^"]+)">Open these 2 queues in Bull Board<\/a>/.exec(body)?.[1];
    expect(open).toBe('/admin/queues?email=++OPS%40acme.TEST+');
    await a.app.close();
    await mount();
    await call('GET', open!.replace(/&amp;/g, '&'));
    expect(await boardQueues()).toEqual([crm.id, billing.id].map((id) => a.keys.hookQueueName(id)).sort());
  });

  it('says what was searched when it finds nothing: an exact address, not a part of one', async () => {
    const empty = await a.store.accounts.create({ name: 'Initech', email: 'it@initech.test' });
    await mount();
    for (const [typed, said] of [
      ['ops@acme.tes', 'No account has the e-mail address “ops@acme.tes”.'],
      ['acme.test', '“acme.test” is not an e-mail address.'],
      [
        'IT@initech.test',
        `Initech (${empty.id}), the account with the e-mail address “it@initech.test”, has no hooks.`,
      ],
    ]) {
      const { rows, status, body } = await search(`email=${encodeURIComponent(typed!)}`);
      expect([typed, status, rows]).toEqual([typed, said, []]);
      expect(body).not.toContain('<h2>Hooks found</h2>');
    }
  });
});

describe('finding hooks by endpoint URL', () => {
  it('lists every account’s hooks whose URL contains the text: the host in any case, the path as typed', async () => {
    const globex = await a.store.accounts.create({ name: 'Globex', email: 'ops@globex.test' });
    const mixed = await hookOf(globex, 'https://Hooks.Globex.test/CRM/Calls', 'Calls');
    await hookOf(globex, 'https://hooks.globex.test/crm/other', 'Other');
    await mount();

    const acme = (await a.store.accounts.get(a.hook.account_id))!;
    const { rows, status } = await search(`url=${encodeURIComponent('127.0.0.1')}`);
    expect(status).toBeUndefined();
    expect(rows).toEqual([
      {
        hook: 'CRM',
        link: queueLink(a.hook.id),
        account: `${acme.name} (${acme.id})`,
        host: new URL(a.hook.url).host,
      },
    ]);

    const cased = await search(`url=${encodeURIComponent('HOOKS.globex.TEST/CRM/C')}`);
    expect(cased.rows).toEqual([
      {
        hook: 'Calls',
        link: queueLink(mixed.id),
        account: `Globex (${globex.id})`,
        host: 'hooks.globex.test',
      },
    ]);
    expect((await search('url=globex.test%2Fcrm%2Fcalls')).status).toBe(
      'No hook has an endpoint URL containing “globex.test/crm/calls”.',
    );
    expect((await search('url=globex.test')).rows.map((r) => r.hook)).toEqual(['Calls', 'Other']);
    expect((await search(`url=${'x'.repeat(2049)}`)).status).toBe(
      'An endpoint URL is at most 2048 characters: give a part of it.',
    );
  });

  it('follows a changed URL and a deleted hook, and lists the first ones found when too many match', async () => {
    const globex = await a.store.accounts.create({ name: 'Globex' });
    const moved = await hookOf(globex, 'https://old.globex.test/in', 'Moved');
    const gone = await hookOf(globex, 'https://gone.globex.test/in', 'Gone');
    await a.store.hooks.update(globex.id, moved.id, { url: 'https://new.globex.test/in' }, 'operator');
    await a.store.hooks.remove(globex.id, gone.id, 'operator');
    await mount();
    expect((await search('url=old.globex')).status).toBe(
      'No hook has an endpoint URL containing “old.globex”.',
    );
    expect((await search('url=new.globex')).rows.map((r) => r.hook)).toEqual(['Moved']);
    expect((await search('url=gone.globex')).rows).toEqual([]);

    for (let n = 0; n < URL_MATCHES_LISTED; n++)
      await hookOf(globex, `https://many.globex.test/${n}`, `Many ${n}`);
    const many = await search('url=globex.test');
    expect(many.rows).toHaveLength(URL_MATCHES_LISTED);
    expect(many.status).toBe(
      `More than ${URL_MATCHES_LISTED} hooks have an endpoint URL containing “globex.test”: the first ${URL_MATCHES_LISTED} found are listed; give more of the URL.`,
    );
  });

  it('finds hooks made before the search by URL existed once the admin area has added them', async () => {
    // As a deployment of the previous version leaves Redis: hooks, and no index of their URLs.
    await a.ctx.redis.del(a.keys.hookUrls(), a.keys.hookUrlsBuilt());
    await a.mount();
    await waitUntil(
      async () => (await search('url=%2Fcrm%3Ftoken')).rows.map((r) => r.hook).join() === 'CRM',
      'the hook made before the index is found',
    );
    expect((await search('url=%2Fcrm%3Ftoken')).status).toBeUndefined();

    // A walk cut short (a restart mid-way): the page says some may be missing, and the search starts it again.
    await a.ctx.redis.del(a.keys.hookUrls(), a.keys.hookUrlsBuilt());
    const meanwhile = await search('url=%2Fcrm%3Ftoken');
    expect(meanwhile.status).toMatch(
      /Hooks made before this version of hookline are still being added to the search by URL: some may be missing; search again in a minute\.$/,
    );
    await waitUntil(
      async () => (await search('url=%2Fcrm%3Ftoken')).status === undefined,
      'the walk the search started has ended',
    );
    expect((await search('url=%2Fcrm%3Ftoken')).rows.map((r) => r.hook)).toEqual(['CRM']);
  });

  it('opens the hooks found on the board from the page’s link', async () => {
    const globex = await a.store.accounts.create({ name: 'Globex' });
    const one = await hookOf(globex, 'https://hooks.globex.test/one', 'One');
    const two = await hookOf(globex, 'https://hooks.globex.test/two', 'Two');
    await mount();
    const { body } = await search('url=hooks.globex');
    const open = /<a href="([^"]+)">Open these 2 queues in Bull Board<\/a>/.exec(body)?.[1];
    expect(open).toBe('/admin/queues?url=hooks.globex');
    await a.app.close();
    await mount();
    expect(await boardQueues()).toEqual([]);
    await call('GET', open!);
    expect(await boardQueues()).toEqual([one.id, two.id].map((id) => a.keys.hookQueueName(id)).sort());
  });
});
