import { pathParams, type Route } from '../route';

// Paths of any route of the table, for the suites driven by it (security, query parameters): the account and
// hook are the test's, the other ids of the right shape, so the route's own checks decide the answer.

/** Path parameters fillPath knows how to fill. */
export const FILLED = new Set(['acct', 'hook', 'attempt_id', 'erasure']);

export const fillPath = (route: Route, acct: string, hook: string): string =>
  route.path
    .replace('{acct}', acct)
    .replace('{hook}', hook)
    .replace('{attempt_id}', 'att_000000000000000000000001')
    .replace('{erasure}', 'ers_00000000000000000001');

/** The path parameters of a route that fillPath cannot fill: a suite driven by the table says so. */
export const unfilled = (route: Route): string[] => pathParams(route.path).filter((p) => !FILLED.has(p));
