// The event catalogue is plain data: each kind lists its payload fields in wire order with their types.
// Validation, encoders, the OpenAPI document and the website are generic over it, so a new kind is a new
// entry (built in here, or from the operator's catalogue file), never new code.

/** `decimal` keeps the producer's text (a JSON number token); `timestamp` is the seed's 7-digit shape. */
export type FieldType = 'string' | 'decimal' | 'timestamp';
export const FIELD_TYPES = ['string', 'decimal', 'timestamp'] as const;

export interface EventField {
  readonly name: string;
  readonly type: FieldType;
  /** An absent optional timestamp is stamped with the current UTC time; other absent fields are left out. */
  readonly optional?: boolean;
  /** Bounds of a string field (catalogue kinds: 0 to STRING_FIELD_MAX). */
  readonly minLength?: number;
  readonly maxLength?: number;
  /**
   * Personal data (a catalogue string field the operator marked): an erasure by number matches it besides
   * `from` and `to`.
   */
  readonly personal?: boolean;
}

/**
 * `producer` kinds are published by the phone system (HTTP API, TypeScript producer) and hooks subscribe to
 * them; `hookline` kinds are hookline's own operator notices, published only from inside hookline.
 */
export type KindOrigin = 'producer' | 'hookline';

export interface EventKind {
  readonly name: string;
  readonly fields: readonly EventField[];
  readonly origin: KindOrigin;
  readonly builtIn: boolean;
  readonly description?: string;
}

/** The longest text a catalogue kind's string field accepts. */
export const STRING_FIELD_MAX = 1024;

/** The seed's event, exactly as §3 orders and types it. */
export const CALL_CREATED: EventKind = {
  name: 'call_created',
  origin: 'producer',
  builtIn: true,
  description: 'A call is created on the phone system',
  fields: [
    { name: 'call_id', type: 'string', minLength: 1, maxLength: 256 },
    { name: 'direction', type: 'string', minLength: 1, maxLength: 64 },
    { name: 'from', type: 'string', maxLength: 256 },
    { name: 'from_cnam', type: 'string', maxLength: 256 },
    { name: 'to', type: 'string', maxLength: 256 },
    { name: 'rate', type: 'decimal' },
    { name: 'date', type: 'timestamp', optional: true },
  ],
};

// Operator notices (a failing, suspended or re-enabled hook). Declared here so their shape is part of the
// catalogue (listed by GET /v1/event-types, encoded like any kind); only hookline itself publishes them.
const notice = (name: string, description: string, extra: readonly EventField[] = []): EventKind => ({
  name,
  origin: 'hookline',
  builtIn: true,
  description,
  fields: [
    { name: 'account_id', type: 'string', minLength: 1, maxLength: 64 },
    { name: 'hook_id', type: 'string', minLength: 1, maxLength: 64 },
    { name: 'url', type: 'string', maxLength: 2048 },
    { name: 'state', type: 'string', maxLength: 16 },
    { name: 'reason', type: 'string', maxLength: STRING_FIELD_MAX },
    // The last 3 failures, one per line: `<time> <outcome> [<status>] [<error>]`.
    { name: 'last_failures', type: 'string', maxLength: STRING_FIELD_MAX },
    ...extra,
    { name: 'date', type: 'timestamp', optional: true },
  ],
});

export const NOTICE_KINDS: readonly EventKind[] = [
  notice('hook.failing', "A hook's failure streak reached half of the suspension threshold", [
    { name: 'failures', type: 'decimal' },
  ]),
  notice('hook.suspended', 'A hook was suspended: its events are held until it is re-enabled'),
  notice('hook.enabled', 'A suspended hook was re-enabled', [
    { name: 'actor', type: 'string', maxLength: 256 },
  ]),
  notice('hook.stuck', 'A hook has events waiting and no worker on it, even after the watchdog woke it', [
    { name: 'waiting', type: 'decimal' },
  ]),
];

export const BUILT_IN_KINDS: readonly EventKind[] = [CALL_CREATED, ...NOTICE_KINDS];

/** The name of the first field of every body, holding the kind's name (§3, and the seed's rule 1). */
export const EVENT_TYPE_FIELD = 'EventType';

/** Field names and types in wire order, EventType first: what the encoders follow. */
export type WireLayout = readonly (readonly [name: string, type: FieldType])[];

/**
 * The kinds one process knows: the built-in ones and the operator's. Built once at start from validated
 * data (see event-catalog-file.ts), then only read.
 */
export class EventCatalog {
  private readonly byName: ReadonlyMap<string, EventKind>;

  private constructor(readonly kinds: readonly EventKind[]) {
    this.byName = new Map(kinds.map((kind) => [kind.name, kind]));
  }

  /** Built-in kinds first, then `extra` in the order given; names must be unique (the file parser checks). */
  static of(extra: readonly EventKind[] = []): EventCatalog {
    return new EventCatalog([...BUILT_IN_KINDS, ...extra]);
  }

  get(name: string): EventKind | undefined {
    return this.byName.get(name);
  }

  /** The kinds producers publish and hooks subscribe to, in catalogue order. */
  get producerKinds(): readonly EventKind[] {
    return this.kinds.filter((kind) => kind.origin === 'producer');
  }

  isPublishable(name: string): boolean {
    return this.byName.get(name)?.origin === 'producer';
  }
}

/** The catalogue of a process started without HOOKLINE_EVENT_CATALOG. */
export const BUILT_IN_CATALOG = EventCatalog.of();

const BUILT_IN_LAYOUTS = new Map<string, WireLayout>(
  BUILT_IN_KINDS.map((kind) => [kind.name, layoutOf(kind)]),
);

/** Every declared field of `kind`, EventType first. */
export function layoutOf(kind: EventKind, present?: (field: EventField) => boolean): WireLayout {
  const fields = present ? kind.fields.filter(present) : kind.fields;
  return [[EVENT_TYPE_FIELD, 'string'], ...fields.map((f) => [f.name, f.type] as const)];
}

/**
 * An event as it is delivered: the kind and every payload field as text (EventType included). This is what
 * job data carries, so encoding at delivery time is deterministic. Events of a catalogue kind carry their
 * wire `layout` too, so a worker whose catalogue differs (a rolling deploy, a file changed since) still
 * encodes them as they were accepted; built-in kinds never change, and their jobs stay as they always were.
 */
export interface DeliverableEvent {
  readonly id: string;
  readonly type: string;
  readonly fields: Readonly<Record<string, string>>;
  readonly layout?: WireLayout;
}

/** The wire layout of an event, or undefined for an event of an unknown kind that carries none. */
export function wireLayout(event: DeliverableEvent): WireLayout | undefined {
  return event.layout ?? BUILT_IN_LAYOUTS.get(event.type);
}
