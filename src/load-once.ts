/**
 * A value made on first use by an asynchronous load, typically a module imported only then, so an
 * instance that never uses the feature does not hold the module (docs/performance-log.md, "what loads at start").
 * Callers meanwhile share the one load. A failed load is not kept: the next call tries again.
 */
export interface LoadedOnce<T> {
  (): Promise<T>;
  /** Runs `use` on the value once it is loaded, if a load was started; nothing otherwise (for closing it). */
  ifLoaded(use: (value: T) => void): void;
}

export function loadOnce<T>(load: () => Promise<T>): LoadedOnce<T> {
  let loading: Promise<T> | undefined;
  const loaded = () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
  return Object.assign(loaded, {
    ifLoaded(use: (value: T) => void): void {
      void loading?.then(use, () => undefined);
    },
  });
}
