import { createServer, type AddressInfo } from 'node:net';
import { testAttemptPage } from './support/test-attempt';
import { useWebsite } from './support/website';

jest.setTimeout(60000);

// What an attempt's page says about the endpoint's answer, after a real delivery to an endpoint that writes its
// answer byte for byte on a raw socket.
describe("an endpoint's answer on the attempt page (real worker)", () => {
  const w = useWebsite();

  /** An endpoint on 127.0.0.1 that answers every request with `answer`, then closes the connection. */
  async function endpointAnswering(answer: string): Promise<string> {
    const server = createServer((socket) => {
      socket.on('error', () => undefined);
      socket.once('data', () => socket.end(answer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    w.ctx.onCleanup(() => new Promise((resolve) => server.close(resolve)));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  }

  /** The attempt page of a test event sent to an endpoint answering `answer`, as a signed-in browser gets it. */
  async function attemptPage(answer: string): Promise<string> {
    w.runWorker();
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: await endpointAnswering(answer) });
    return testAttemptPage(w, 'ops@acme.test', hook.id);
  }

  const errorOn = (page: string) => /<dt>Error<\/dt>\s*<dd>([\s\S]*?)<\/dd>/.exec(page)?.[1]?.trim();

  // The endpoint answered, with something that is not HTTP: it did not close the connection unanswered, and
  // undici's parser text ("Response does not match the HTTP/1.1 protocol …") is not a customer's sentence.
  it.each([
    ['an unasked 100 Continue', 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'],
    ['no status line', 'NOT HTTP AT ALL\r\n\r\n'],
  ])('%s: the answer was not valid HTTP', async (_name, answer) => {
    const page = await attemptPage(answer);
    expect(errorOn(page)).toBe('<span>The endpoint’s answer was not valid HTTP</span>');
  });

  // The record keeps the status code, not the status line: the page made one up (`HTTP/1.1 302 Found` for an
  // endpoint that answered `HTTP/1.0 302 X`). It shows the code as the code, and the headers as received.
  it('shows the status code as received, with no made-up status line', async () => {
    const page = await attemptPage('HTTP/1.0 302 X\r\nLocation: /elsewhere\r\nContent-Length: 0\r\n\r\n');
    expect(page).not.toContain('302 Found');
    expect(page).not.toMatch(/HTTP\/1\.1 302/);
    expect(/<p data-response-status>([^<]*)<\/p>/.exec(page)?.[1]).toBe('Status code 302.');
    expect(/<pre class="request" data-response-headers>([^<]*)<\/pre>/.exec(page)?.[1]).toBe(
      'location: /elsewhere\ncontent-length: 0',
    );
  });
});
