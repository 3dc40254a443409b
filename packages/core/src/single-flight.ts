/**
 * `task` behind a guard that never runs it twice at once: a call while a run is going gets that run, and the
 * next call after it ends starts a new one. A run that fails goes to `onError`; the returned promise always
 * resolves. What a loop on a timer or a scrape uses so that a slow Redis does not stack runs up behind.
 */
export function singleFlight(
  task: () => Promise<unknown>,
  onError: (error: unknown) => void,
): { run(): Promise<void>; readonly current: Promise<void> | undefined } {
  let current: Promise<void> | undefined;
  return {
    run: () =>
      (current ??= task()
        .then(
          () => undefined,
          (error: unknown) => void onError(error),
        )
        .finally(() => (current = undefined))),
    get current() {
      return current;
    },
  };
}
