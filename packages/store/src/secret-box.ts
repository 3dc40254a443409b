import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { ErasureTags } from '@hookline/core';

const VERSION = 'v1';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Authenticated encryption of hook credentials at rest: AES-256-GCM, a fresh random IV per seal, and the
 * owner (the hook id) bound as additional authenticated data, so a ciphertext copied into another hook's
 * record fails to open instead of handing that hook someone else's credentials.
 *
 * Sealed text: `v1.<iv>.<tag>.<ciphertext>`, each part base64url. The version lets a later key or cipher
 * change coexist with secrets sealed today.
 */
export class SecretBox {
  // A private field, so that logging or inspecting the box never prints the key.
  readonly #key: Buffer;

  private constructor(key: Buffer) {
    this.#key = key;
  }

  static fromKey(key: Buffer): SecretBox {
    if (key.length !== KEY_BYTES) throw new Error(`SecretBox needs a ${KEY_BYTES}-byte key`);
    return new SecretBox(Buffer.from(key));
  }

  /** The erasure fence's tagger, keyed from this box's key: processes with the same secret key tag alike. */
  erasureTags(): ErasureTags {
    return ErasureTags.fromSecretKey(this.#key);
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(additionalData(context));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, iv, tag, ciphertext]
      .map((part) => (typeof part === 'string' ? part : b64(part)))
      .join('.');
  }

  /** Throws when the text was tampered with, sealed for another context, or sealed under another key. */
  open(sealed: string, context: string): string {
    const parts = sealed.split('.');
    const [version, iv, tag, ciphertext] = parts;
    if (parts.length !== 4 || version !== VERSION || !iv || !tag || ciphertext === undefined)
      throw new SecretBoxError('unrecognised format');
    const ivBytes = Buffer.from(iv, 'base64url');
    const tagBytes = Buffer.from(tag, 'base64url');
    if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) throw new SecretBoxError('bad header');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, ivBytes, { authTagLength: TAG_BYTES });
      decipher.setAAD(additionalData(context));
      decipher.setAuthTag(tagBytes);
      return Buffer.concat([
        decipher.update(Buffer.from(ciphertext, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      // Node's message is generic too; ours says what to check without echoing any input.
      throw new SecretBoxError('authentication failed (wrong key, wrong owner, or tampered)');
    }
  }

  toJSON(): string {
    return '[SecretBox]';
  }
}

/** Never carries the sealed text or the plaintext, only what went wrong. */
export class SecretBoxError extends Error {
  constructor(reason: string) {
    super(`Sealed secret could not be opened: ${reason}`);
    this.name = 'SecretBoxError';
  }
}

const additionalData = (context: string) => Buffer.from(`hookline.secret.${VERSION}:${context}`, 'utf8');
const b64 = (bytes: Buffer) => bytes.toString('base64url');
