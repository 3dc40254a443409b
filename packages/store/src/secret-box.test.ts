import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { decodeSecretKey } from '@hookline/config';
import { SecretBox } from './secret-box';

const KEY = decodeSecretKey('ab'.repeat(32))!;
const box = SecretBox.fromKey(KEY);
const TOKEN = 'tok_live_4f9a8c7e6d5b4a39';

describe('SecretBox', () => {
  it('opens what it sealed, for the same context', () => {
    const sealed = box.seal(TOKEN, 'hk_one');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(box.open(sealed, 'hk_one')).toBe(TOKEN);
  });

  it('round-trips empty and non-ASCII text', () => {
    for (const text of ['', 'pässwörd ✓ 密码'])
      expect(box.open(box.seal(text, 'hk_one'), 'hk_one')).toBe(text);
  });

  it('never shows the plaintext in the sealed text, and seals the same text differently each time', () => {
    const first = box.seal(TOKEN, 'hk_one');
    const second = box.seal(TOKEN, 'hk_one');
    expect(first).not.toContain(TOKEN);
    expect(Buffer.from(first.split('.')[3]!, 'base64url').toString('latin1')).not.toContain(TOKEN);
    expect(first).not.toBe(second);
  });

  it('refuses a sealed text that was tampered with', () => {
    const [version, iv, tag, ciphertext] = box.seal(TOKEN, 'hk_one').split('.') as [
      string,
      string,
      string,
      string,
    ];
    const bytes = Buffer.from(ciphertext, 'base64url');
    bytes[0] = bytes[0]! ^ 1;
    const flipped = [version, iv, tag, bytes.toString('base64url')].join('.');
    expect(() => box.open(flipped, 'hk_one')).toThrow(/could not be opened/);
    expect(() => box.open('v1.garbage', 'hk_one')).toThrow(/could not be opened/);
    expect(() => box.open(`v2.${iv}.${tag}.${ciphertext}`, 'hk_one')).toThrow(/could not be opened/);
  });

  it('refuses a sealed text copied to another context (another hook)', () => {
    const sealed = box.seal(TOKEN, 'hk_one');
    expect(() => box.open(sealed, 'hk_two')).toThrow(/could not be opened/);
  });

  it('refuses to open under another key, and says nothing about the secret when it fails', () => {
    const sealed = box.seal(TOKEN, 'hk_one');
    const other = SecretBox.fromKey(randomBytes(32));
    let message = '';
    try {
      other.open(sealed, 'hk_one');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/could not be opened/);
    expect(message).not.toContain(TOKEN);
    expect(message).not.toContain(sealed);
  });

  it('accepts only 32-byte keys and never serialises the key', () => {
    expect(() => SecretBox.fromKey(randomBytes(16))).toThrow(/32-byte/);
    expect(JSON.stringify({ box })).toBe('{"box":"[SecretBox]"}');
    expect(inspect(box)).not.toContain(KEY.toString('hex'));
  });
});
