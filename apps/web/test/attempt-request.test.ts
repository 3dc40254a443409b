import { startReceiver } from '@hookline/testing';
import { testAttemptPage } from './support/test-attempt';
import { useWebsite } from './support/website';

jest.setTimeout(60000);

// An attempt's page shows "the exact request sent" (product.md §10): after a real delivery, its header lines
// are the ones the endpoint received, in order, framing included (host, connection, content-length), with
// only the credentials masked.
describe("an attempt's request on the website (real worker)", () => {
  const w = useWebsite();

  it('lists the headers the endpoint received, in the order received, the token masked', async () => {
    const receiver = await startReceiver();
    w.ctx.closeLater(receiver);
    w.runWorker();
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, {
      url: receiver.url('/hooks/calls'),
      auth: { scheme: 'bearer', token: 'tok_123456789' },
    });
    const page = await testAttemptPage(w, 'ops@acme.test', hook.id);
    const request = /<pre class="request" data-request>\n([\s\S]*?)<\/pre>/.exec(page)![1]!;
    const [head] = request.split('\n\n');
    const received = receiver.requests[0]!;
    const wire: string[] = [];
    for (let i = 0; i < received.rawHeaders.length; i += 2) {
      const name = received.rawHeaders[i]!;
      wire.push(`${name}: ${name === 'Authorization' ? 'Bearer ••••6789' : received.rawHeaders[i + 1]}`);
    }
    expect(head!.split('\n')).toEqual([`POST /hooks/calls HTTP/1.1`, ...wire]);
    expect(page).not.toContain('tok_123456789');
    // The tab's title names the call, not the attempt's id (§15: no ids where a customer reads).
    const title = /<title>([^<]*)<\/title>/.exec(page)![1]!;
    const [line] = (await w.reader.listForHook(hook.id, {}, { limit: 1 })).data;
    expect(title).toBe(`Attempt for call ${line!.call_id} · ${hook.url} · hookline`);
  });
});
