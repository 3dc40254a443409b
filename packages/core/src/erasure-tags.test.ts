import { createHash, randomBytes } from 'node:crypto';
import { ErasureTags } from './erasure-tags';

const NUMBER = '+15550100';
const call = {
  call_id: 'c-1',
  direction: 'inbound',
  from: NUMBER,
  from_cnam: 'Jonas',
  to: '+4420',
  rate: '0.0',
};

describe('erasure tags', () => {
  it('are the same in every process with the same secret key, and others under another key', () => {
    const key = randomBytes(32);
    const api = ErasureTags.fromSecretKey(key);
    const worker = ErasureTags.fromSecretKey(Buffer.from(key));
    const other = ErasureTags.fromSecretKey(randomBytes(32));
    expect(worker.ofEvent(call)).toEqual(api.ofEvent(call));
    expect(other.ofEvent(call).some((tag) => api.ofEvent(call).includes(tag))).toBe(false);
  });

  it('match an event by its number or call id, and cannot be made without the key', () => {
    const tags = ErasureTags.fromSecretKey(randomBytes(32));
    const event = tags.ofEvent(call);
    expect(event).toContain(tags.main({ kind: 'number', value: NUMBER }));
    expect(event).toContain(tags.main({ kind: 'number', value: '+4420' }));
    expect(event).toContain(tags.main({ kind: 'call_id', value: 'c-1' }));
    expect(event).not.toContain(tags.main({ kind: 'number', value: 'c-1' }));
    expect(event).not.toContain(tags.main({ kind: 'number', value: '+1999' }));
    // What the tag of a number was before it was keyed: a hash anyone can make for every number.
    const plain = createHash('sha256')
      .update(`hookline-erasure:n:${NUMBER}`)
      .digest('base64url')
      .slice(0, 22);
    expect(event.map((tag) => tag.slice(2))).not.toContain(plain);
    expect(JSON.stringify(event)).not.toContain(NUMBER);
  });

  it("match a catalogue kind's personal field only for the kind and field the erasure names", () => {
    // The layout a catalogue kind's event carries: each field and its type.
    const layout = [
      ['callback', 'string'],
      ['note', 'string'],
    ] as const;
    const tags = ErasureTags.fromSecretKey(randomBytes(32));
    const event = tags.ofEvent({ callback: NUMBER, note: NUMBER }, { type: 'callback_requested', layout });
    const erasure = tags.ofErasure({
      kind: 'number',
      value: NUMBER,
      personal: { callback_requested: ['callback'] },
    });
    // The main tag (from and to) and the personal field's: only the latter is in this event.
    expect(erasure.filter((tag) => event.includes(tag))).toEqual([erasure[1]]);
    expect(event).toHaveLength(2);
  });

  it('refuse a key that is not 32 bytes', () => {
    expect(() => ErasureTags.fromSecretKey(randomBytes(16))).toThrow('ErasureTags needs a 32-byte key');
  });
});
