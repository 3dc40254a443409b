/** Wall-clock time, passed in wherever time is recorded, so tests can drive it. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
