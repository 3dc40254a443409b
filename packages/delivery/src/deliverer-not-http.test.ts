import { errorInWords, failureInWords } from '@hookline/core';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { createDeliverer, type Deliverer } from './deliverer';
import { OAuthTokens } from './oauth-tokens';

// Endpoints whose answer is not HTTP, written byte for byte on a raw socket: recorded `error`, with no status
// code, and said in words on a page and in a notice (the recorded error keeps undici's own for operators).
let server: Server | undefined;
let deliverer: Deliverer | undefined;
afterEach(async () => {
  await deliverer?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  [deliverer, server] = [undefined, undefined];
});

/** An endpoint on 127.0.0.1 that answers every request with `answer`, then closes the connection. */
async function endpointAnswering(answer: string): Promise<string> {
  server = createServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', () => socket.end(answer));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
}

async function attempt(answer: string) {
  const url = await endpointAnswering(answer);
  deliverer = createDeliverer({ timeoutMs: 5000, allowNetworks: ['127.0.0.0/8'] });
  return deliverer.attempt({ url, headers: { 'Content-Type': 'application/json' }, body: '{}' });
}

describe('an answer that is not HTTP', () => {
  // RFC 9110 §15: a status code is 100 to 599; `600` was recorded `failed` with status_code 600.
  it('a status over 599 is an error without a status code', async () => {
    const result = await attempt('HTTP/1.1 600 X\r\nContent-Length: 0\r\n\r\n');
    expect(result).toEqual({
      outcome: 'error',
      error: 'the endpoint’s answer was not valid HTTP: status 600 is outside 100–599',
      durationMs: expect.any(Number),
    });
    expect(failureInWords({ outcome: result.outcome, error: result.error })).toBe(
      'the endpoint’s answer was not valid HTTP: status 600 is outside 100–599',
    );
  });

  it('a status under 100 is an error in words, not undici’s assertion', async () => {
    const result = await attempt('HTTP/1.1 099 X\r\nContent-Length: 0\r\n\r\n');
    expect(result).toEqual({
      outcome: 'error',
      error: 'the endpoint’s answer was not valid HTTP: status under 100 is outside 100–599',
      durationMs: expect.any(Number),
    });
    expect(errorInWords(result.error!)).toBe(result.error);
  });

  it('a token endpoint’s status over 599: no token, said once in words', async () => {
    const url = await endpointAnswering('HTTP/1.1 600 X\r\nContent-Length: 0\r\n\r\n');
    deliverer = createDeliverer({ timeoutMs: 5000, allowNetworks: ['127.0.0.0/8'] });
    const tokens = new OAuthTokens((request) => deliverer!.attempt(request));
    const auth = {
      scheme: 'oauth2',
      token_url: url,
      client_id: 'c',
      client_secret: 's',
      client_auth: 'basic',
    } as const;
    expect(await tokens.token({ id: 'hk_1', version: 1, auth })).toMatchObject({
      kind: 'failed',
      result: {
        outcome: 'error',
        error: `no OAuth 2.0 token from ${url}: the token endpoint’s answer was not valid HTTP: status 600 is outside 100–599; nothing was sent to the endpoint`,
      },
    });
  });
});
