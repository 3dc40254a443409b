import type { BlockReason } from './network-policy';

export const DESTINATION_BLOCKED = 'HOOKLINE_DESTINATION_BLOCKED';

/**
 * Raised inside the connect path (lookup or connector) when the network policy refuses every address of
 * a destination. It travels through undici unchanged, so the attempt can tell `blocked` from `error`.
 */
export class DestinationBlockedError extends Error {
  readonly code = DESTINATION_BLOCKED;
  constructor(
    readonly host: string,
    readonly refused: readonly { readonly address: string; readonly reason: BlockReason }[],
  ) {
    const list = refused.map((r) => `${r.address} (${r.reason})`).join(', ');
    super(
      refused.length === 1 && refused[0]!.address === host
        ? `destination ${list} is not allowed by the network policy`
        : `destination ${host} resolves only to addresses the network policy forbids: ${list}`,
    );
    this.name = 'DestinationBlockedError';
  }
}

export function isDestinationBlocked(err: unknown): err is DestinationBlockedError {
  return (err as { code?: unknown } | null)?.code === DESTINATION_BLOCKED;
}
