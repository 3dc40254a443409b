import { startReceiver } from '@hookline/testing';
import { useHookline } from './harness';

// With a brand set (product.md §16), customers never read "hookline": not in what their endpoint receives
// either, where the User-Agent is the brand's (the website's request preview shows the same one).
describe('deliveries under the operator’s brand', () => {
  const h = useHookline();

  it('reach the endpoint with the brand’s User-Agent and no "hookline" in any byte', async () => {
    const receiver = await startReceiver();
    h.ctx.closeLater(receiver);
    const account = await h.account();
    await h.hook(account.id, {
      url: receiver.url('/webhook'),
      auth: { scheme: 'bearer', token: 'tok_123456789' },
      signing: true,
    });
    h.startWorker({ HOOKLINE_BRAND_NAME: 'Voxtel Connect' });
    await h.publish(account.id, { call_id: 'branded-1' });
    await receiver.waitFor(1);
    const [request] = receiver.requests;
    expect(request!.headers['user-agent']).toBe('Voxtel-Connect-Webhooks/1.0');
    const bytes = `${request!.method} ${request!.path}\r\n${request!.rawHeaders.join('\r\n')}\r\n\r\n${request!.body.toString('utf8')}`;
    expect(bytes).toContain('"call_id":"branded-1"');
    expect(bytes).not.toMatch(/hookline/i);
  });

  it('keep hookline’s own User-Agent without a brand', async () => {
    const receiver = await startReceiver();
    h.ctx.closeLater(receiver);
    const account = await h.account();
    await h.hook(account.id, { url: receiver.url('/webhook') });
    h.startWorker();
    await h.publish(account.id);
    await receiver.waitFor(1);
    expect(receiver.requests[0]!.headers['user-agent']).toBe('hookline/0.1');
  });
});
