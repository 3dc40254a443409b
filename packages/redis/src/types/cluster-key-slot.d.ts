// cluster-key-slot (ioredis' own, for the slot of a key) ships no types.
declare module 'cluster-key-slot' {
  /** The Redis Cluster hash slot of `key` (its hash tag's, when it has one). */
  export default function calculateSlot(key: string | Buffer): number;
}
