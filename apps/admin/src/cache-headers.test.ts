import { AUTH, useAdmin } from './test-support/admin-harness';

// Admin answers show accounts, hooks and their queued events: like the website's pages, none is kept by a shared
// cache or the back button (Cache-Control: no-store). Bull Board's own static files, the same for everyone,
// are the one exception and say so themselves. (A path under /admin that names nothing is the host's 404.)
const a = useAdmin();

describe('the admin area’s cache headers (HTTP)', () => {
  it('every answer is no-store: pages, the board’s data, refusals, a missing static file; static files are cached', async () => {
    await a.mount();
    const html = { ...AUTH, accept: 'text/html' };
    const answers = [
      ['/admin', html],
      [`/admin?url=${encodeURIComponent('crm')}`, html],
      ['/admin/queues', html],
      [`/admin/queues?hook=${a.hook.id}`, html],
      ['/admin/queues/api/queues', undefined],
      [
        `/admin/queues/api/queues?activeQueue=${encodeURIComponent(a.keys.hookQueueName(a.hook.id))}`,
        undefined,
      ],
      ['/admin/queues/static/nothing-here.js', undefined],
      ['/admin', { accept: 'text/html' }],
      ['/admin/queues/api/queues', {}],
    ] as const;
    for (const [path, headers] of answers) {
      const res = await a.call('GET', path, headers);
      expect([path, res.statusCode, res.headers.get('cache-control')]).toEqual([
        path,
        res.statusCode,
        'no-store',
      ]);
    }
    const board = (await a.call('GET', '/admin/queues')).body;
    const script = /src="(static\/js\/main\.[0-9a-f]+\.js)"/.exec(board)?.[1];
    const file = await a.call('GET', `/admin/queues/${script}`);
    expect([file.statusCode, file.headers.get('cache-control')]).toEqual([200, 'public, max-age=3600']);
  });
});
