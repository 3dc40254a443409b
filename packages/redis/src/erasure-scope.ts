/**
 * What the erasure scripts match (core's ErasureTarget, by shape: this package does not depend on core): a
 * call id or a number, and for a number the catalogue's personal fields per kind.
 */
export interface ErasureScope {
  readonly kind: string;
  readonly value: string;
  readonly personal?: Readonly<Record<string, readonly string[]>>;
}

/** The personal fields as the scripts' last argument takes them: JSON, or '' for none. */
export function personalArg(scope: ErasureScope): string {
  return scope.personal && Object.keys(scope.personal).length > 0 ? JSON.stringify(scope.personal) : '';
}
