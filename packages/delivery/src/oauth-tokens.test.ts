import type { OAuth2Auth } from '@hookline/core';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EXCERPT_BYTES } from './capped-body';
import { createDeliverer, type Deliverer } from './deliverer';
import { OAuthTokens, TOKEN_ANSWER_MAX_BYTES } from './oauth-tokens';

// The token endpoint's answer is read whole, not as a delivery's 4 KiB excerpt: identity providers hand out
// JWTs with many claims (groups, roles, certificate thumbprints) that run to several KiB.
describe('OAuth 2.0 token answers of any usual size', () => {
  let server: Server | undefined;
  let deliverer: Deliverer;
  beforeEach(() => {
    deliverer = createDeliverer({ timeoutMs: 5000, allowNetworks: ['127.0.0.0/8'] });
  });
  afterEach(async () => {
    await deliverer.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
  });

  /** A token endpoint on 127.0.0.1 that answers every request with `body` as JSON. */
  async function tokenEndpoint(body: string): Promise<OAuth2Auth> {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.setHeader('Content-Type', 'application/json');
        res.end(body);
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return {
      scheme: 'oauth2',
      token_url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth/token`,
      client_id: 'hookline',
      client_secret: 's3cret',
      client_auth: 'basic',
    };
  }
  const tokensOf = () => new OAuthTokens((request) => deliverer.attempt(request));
  const owner = (auth: OAuth2Auth) => ({ id: 'hk_1', version: 1, auth });
  // A JWT's shape: three base64url parts, the claims making it long.
  const jwtOf = (bytes: number) => `eyJhbGciOiJSUzI1NiJ9.${'a'.repeat(bytes - 40)}.c2lnbmF0dXJl`;

  it('takes a 20 KiB JWT whole', async () => {
    const jwt = jwtOf(20 * 1024);
    expect(jwt.length).toBeGreaterThan(EXCERPT_BYTES * 4);
    const auth = await tokenEndpoint(
      JSON.stringify({ access_token: jwt, token_type: 'Bearer', expires_in: 3600 }),
    );
    await expect(tokensOf().token(owner(auth))).resolves.toEqual({ kind: 'token', token: jwt });
  });

  it(`refuses an answer over ${TOKEN_ANSWER_MAX_BYTES / 1024} KiB in words, nothing sent`, async () => {
    const jwt = jwtOf(TOKEN_ANSWER_MAX_BYTES + 1024);
    const auth = await tokenEndpoint(JSON.stringify({ access_token: jwt, token_type: 'Bearer' }));
    const result = await tokensOf().token(owner(auth));
    expect(result).toMatchObject({
      kind: 'failed',
      result: {
        outcome: 'error',
        error: `no OAuth 2.0 token from ${auth.token_url}: the token endpoint did not answer with JSON (or with more than 64 KiB); nothing was sent to the endpoint`,
      },
    });
  });
});
