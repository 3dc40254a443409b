export * from './contracts';
export { decodeHookCursor, type HookPage, type HookPageRequest } from './hook-page';
export {
  decodeHeldCursor,
  HeldEvents,
  type HeldEventView,
  type HeldPage,
  type HeldPageStart,
} from './held-events';
export { DEFAULT_ACTIVITY_MAX } from './activity-feed';
export { createStore, type Store, type StoreDeps } from './create-store';
export { SecretBox, SecretBoxError } from './secret-box';
export { hashPassword, verifyPasswordHash } from './passwords';
export {
  PASSWORD_MIN,
  PASSWORD_MAX,
  NAME_MAX,
  EMAIL_MAX,
  isEmailAddress,
  normaliseEmail,
} from './account-input';
export { LoginLimiter, type LoginAttempt, type LoginGate } from './login-limiter';
export { STORE_SCRIPTS } from './scripts';
export {
  ERASURE_FENCE_TTL_MS,
  RedisErasures,
  describeCounts,
  type ErasureAsker,
  type ErasureView,
  type ErasureWork,
} from './erasures';
export { PortalLinks, type NewPortalLink, type PortalLinkOptions, type PortalLinkUse } from './portal-links';
