/** A set of listeners: what the read models and live events call when something changes. */
export class Listeners<T> {
  private readonly set = new Set<(value: T) => void>();

  /** Adds a listener; returns what removes it. */
  add(listener: (value: T) => void): () => void {
    this.set.add(listener);
    return () => this.set.delete(listener);
  }

  emit(value: T): void {
    for (const listener of this.set) listener(value);
  }

  get size(): number {
    return this.set.size;
  }
}
