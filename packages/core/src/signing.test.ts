import { Webhook } from 'standardwebhooks';
import type { HookAuth } from './auth';
import { buildDeliveryRequest, previewDeliveryRequest, USER_AGENT } from './delivery-request';
import type { HookFormat } from './encoders';
import { SAMPLE_CALL_CREATED } from './samples';
import {
  newSigningSecret,
  PREVIOUS_SECRET_GRACE_MS,
  rotatedKeys,
  signatureOf,
  type SigningKeys,
} from './signing';

const OPTIONS = { eventTypeHeader: 'X-Service-Event-Type', userAgent: USER_AGENT };
const AUTHS: HookAuth[] = [
  { scheme: 'bearer', token: 's3cr3t-token' },
  { scheme: 'basic', username: 'jonas', password: 'pa:ss wörd' },
];
const FORMATS: HookFormat[] = ['json', 'form'];

function send(signing: SigningKeys | undefined, format: HookFormat, auth: HookAuth, sentAt = new Date()) {
  const target = { url: 'https://www.example.com/webhook', format, auth, ...(signing ? { signing } : {}) };
  return buildDeliveryRequest(target, SAMPLE_CALL_CREATED, { ...OPTIONS, sentAt });
}

/**
 * Verification as a receiver does it, with the official library: headers in, payload or an error out. Its
 * verify() parses the body as JSON unless told not to, which a form receiver does.
 */
const verify = (secret: string, body: string, headers: Record<string, string>) =>
  new Webhook(secret).verify(body, headers, { jsonParse: body.startsWith('{') });

describe('Standard Webhooks signatures', () => {
  it.each(FORMATS.flatMap((format) => AUTHS.map((auth) => [format, auth] as const)))(
    'a %s request with %o auth verifies with the standardwebhooks library',
    (format, auth) => {
      const secret = newSigningSecret();
      const request = send({ current: secret }, format, auth);
      expect(request.headers['Authorization']).toMatch(/^(Basic|Bearer) /);
      expect(request.headers['webhook-id']).toBe(SAMPLE_CALL_CREATED.id);
      expect(() => verify(secret, request.body, request.headers)).not.toThrow();
      expect(() => verify(newSigningSecret(), request.body, request.headers)).toThrow();
    },
  );

  it('fails verification when the body or the timestamp was changed on the way', () => {
    const secret = newSigningSecret();
    const request = send({ current: secret }, 'json', AUTHS[0]!);
    expect(() => verify(secret, request.body.replace('0.0', '0.1'), request.headers)).toThrow();
    const earlier = String(Number(request.headers['webhook-timestamp']) - 1);
    expect(() =>
      verify(secret, request.body, { ...request.headers, 'webhook-timestamp': earlier }),
    ).toThrow();
  });

  it('signs with both secrets for 24 hours after a rotation, then with the new one only', () => {
    const old = newSigningSecret();
    const fresh = newSigningSecret();
    const rotatedAt = new Date('2026-01-01T00:00:00Z');
    const keys = rotatedKeys({ current: old }, fresh, rotatedAt);
    const during = send(
      keys,
      'form',
      AUTHS[1]!,
      new Date(rotatedAt.getTime() + PREVIOUS_SECRET_GRACE_MS - 1000),
    );
    const signed = (request: typeof during, secret: string) =>
      signatureOf(
        secret,
        request.headers['webhook-id']!,
        Number(request.headers['webhook-timestamp']),
        request.body,
      );
    expect(during.headers['webhook-signature']).toBe(`${signed(during, fresh)} ${signed(during, old)}`);
    const after = send(keys, 'form', AUTHS[1]!, new Date(rotatedAt.getTime() + PREVIOUS_SECRET_GRACE_MS));
    expect(after.headers['webhook-signature']).toBe(signed(after, fresh));
  });

  it('adds nothing to the headers of a hook that does not sign (§3 exactly)', () => {
    const request = send(undefined, 'json', AUTHS[0]!);
    expect(Object.keys(request.headers)).toEqual([
      'Content-Type',
      'X-Service-Event-Type',
      'Authorization',
      'User-Agent',
    ]);
  });

  it('needs the send time for a signing hook', () => {
    const target = {
      url: 'https://x.example/',
      format: 'json' as const,
      auth: AUTHS[0]!,
      signing: { current: newSigningSecret() },
    };
    expect(() => buildDeliveryRequest(target, SAMPLE_CALL_CREATED, OPTIONS)).toThrow(/sentAt/);
  });

  it('previews the signature headers with the signature masked', () => {
    const preview = previewDeliveryRequest(
      { url: 'https://x.example/', format: 'json', auth: { scheme: 'none' }, signing: true },
      SAMPLE_CALL_CREATED,
      { ...OPTIONS, sentAt: new Date('2016-03-01T08:31:55Z') },
    );
    expect(preview.headers).toMatchObject({
      'webhook-id': 'evt_sample',
      'webhook-timestamp': '1456821115',
      'webhook-signature': 'v1,••••',
    });
  });

  it('makes secrets of 32 random bytes in the whsec_ form', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newSigningSecret()).not.toBe(secret);
  });
});
