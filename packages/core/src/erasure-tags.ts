import { createHmac, hkdfSync } from 'node:crypto';
import { EVENT_TYPE_FIELD, type DeliverableEvent } from './event-kinds';
import { NUMBER_FIELDS, type ErasureTarget } from './erasure';

// Tags, not values, are what the erasure fence compares while an erasure runs (product.md §18): a worker about
// to send an event sends the tags of its fields, and the script refuses when one is marked. An event no hook got
// keeps its tags in its idempotency key's answer (24 h), so that an erasure can find the key.
//
// A tag is an HMAC under a key derived from HOOKLINE_SECRET_KEY, not a plain hash: a phone number has so few
// possible values that a plain hash of one is undone by hashing them all, and Redis (its dumps, its replicas,
// whoever may read its keys) would then hold the numbers after all. Every process that tags (the API, the
// workers, a monitor that runs erasures) has the key already: it opens hooks' sealed credentials with it.

const KEY_BYTES = 32;
// Names what the derived key is for: the secret key's other uses never meet this key.
const KEY_INFO = 'hookline erasure tags v1';

type Kind = 'c' | 'n' | 'p';

/** The erasure fence's tags of events and of erasures, keyed; one per process, from the secret key. */
export class ErasureTags {
  // A private field, so that logging or inspecting the tagger never prints the key.
  readonly #key: Buffer;

  private constructor(key: Buffer) {
    this.#key = key;
  }

  /** The tagger of HOOKLINE_SECRET_KEY (32 bytes): every process with the same secret key tags alike. */
  static fromSecretKey(secretKey: Buffer): ErasureTags {
    if (secretKey.length !== KEY_BYTES) throw new Error(`ErasureTags needs a ${KEY_BYTES}-byte key`);
    return new ErasureTags(Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), KEY_INFO, KEY_BYTES)));
  }

  /** The erasure's main tag (its call id, or its number in `from` and `to`). */
  main(target: ErasureTarget): string {
    return this.tag(target.kind === 'call_id' ? 'c' : 'n', target.value);
  }

  /** Every tag an erasure marks in the fence: its main tag and one per personal field it matches. */
  ofErasure(target: ErasureTarget): string[] {
    const tags = [this.main(target)];
    if (target.kind === 'number')
      for (const [kind, names] of Object.entries(target.personal ?? {}))
        for (const name of names) tags.push(this.personal(kind, name, target.value));
    return tags;
  }

  /**
   * The tags of an event: what any erasure that reaches it would have marked. Built-in kinds have no personal
   * fields (the catalogue marks only its own kinds), so their events cost two or three tags; an event of a
   * catalogue kind (it carries its layout) adds one per text field.
   */
  ofEvent(
    fields: Readonly<Record<string, string>>,
    event?: Pick<DeliverableEvent, 'type' | 'layout'>,
  ): string[] {
    const tags: string[] = [];
    if (Object.hasOwn(fields, 'call_id')) tags.push(this.tag('c', fields['call_id']!));
    for (const name of NUMBER_FIELDS)
      if (Object.hasOwn(fields, name)) tags.push(this.tag('n', fields[name]!));
    for (const [name, type] of event?.layout ?? [])
      if (type === 'string' && name !== EVENT_TYPE_FIELD && Object.hasOwn(fields, name))
        tags.push(this.personal(event!.type, name, fields[name]!));
    return tags;
  }

  // A personal field's tag names its kind and field: a worker cannot know which fields its catalogue marks (it
  // may have none, or another version during a deploy), so it tags every text field of a catalogue kind, and
  // only the erasure's own (kind, field) pairs are marked.
  private personal(kind: string, field: string, value: string): string {
    return this.tag('p', `${kind}\n${field}\n${value}`);
  }

  // 22 base64url characters: 132 bits, far past any collision among one account's tags.
  private tag(kind: Kind, text: string): string {
    return `${kind}:${createHmac('sha256', this.#key).update(`${kind}:${text}`).digest('base64url').slice(0, 22)}`;
  }
}
