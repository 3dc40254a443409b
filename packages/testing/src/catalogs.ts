/**
 * An operator's event catalogue file (the text HOOKLINE_EVENT_CATALOG names) with one kind whose `callback`
 * is personal data and whose `note` is not: what the erasure tests of the store and the monitor match against.
 */
export const CALLBACK_CATALOG = JSON.stringify({
  kinds: [
    {
      name: 'callback_requested',
      fields: [
        { name: 'call_id', type: 'string', optional: true },
        { name: 'callback', type: 'string', personal: true },
        { name: 'note', type: 'string' },
      ],
    },
  ],
});
