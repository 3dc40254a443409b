export { createDeliverer, type Deliverer, type DelivererOptions } from './deliverer';
export { DestinationBlockedError, isDestinationBlocked } from './destination-blocked';
export {
  checkUrlDestination,
  createNetworkPolicy,
  parseAllowNetworks,
  type BlockReason,
  type NetworkPolicy,
  type PolicyDecision,
} from './network-policy';
export { EXCERPT_BYTES, MAX_BODY_BYTES } from './capped-body';
export { parseEgressProxy, type EgressProxy } from './egress-proxy';
export { sentOrError } from './sent-or-error';
export { proxyAnswers } from './proxy-answers';
export { OAuthTokens, type TokenOwner, type TokenResult } from './oauth-tokens';
