import { createHash } from 'node:crypto';

/**
 * Keeps one frozen copy in memory of each deck content that live rooms play. In the database, a room
 * keeps its own copy of a host's deck (so that a later edit changes no room), or names a built-in
 * deck by its content's hash. Either way, thousands of rooms opened from the same deck hold the same
 * questions. A parsed copy per room was most of a room's memory (about 150 KB for the built-in deck)
 * and most of what a major GC marked. Copies are found by their content's hash, so a room restored
 * from its own row shares a copy too, and a room whose deck was edited before it opened does not. An
 * entry is dropped when no room holds its copy any more.
 */
export class SharedDecks {
  private readonly byContent = new Map<string, WeakRef<readonly unknown[]>>();
  private readonly forgotten = new FinalizationRegistry<string>((key) => {
    if (this.byContent.get(key)?.deref() === undefined) this.byContent.delete(key);
  });

  /** Returns the shared frozen copy of `items`, which is deeply equal to them. */
  share<T>(items: readonly T[]): readonly T[] {
    const key = createHash('sha256').update(JSON.stringify(items)).digest('base64url');
    const known = this.byContent.get(key)?.deref();
    // The same content means the same items, whatever type the caller gives them.
    if (known) return known as readonly T[];
    const frozen = Object.freeze(items.map(freezeItem));
    this.byContent.set(key, new WeakRef(frozen));
    this.forgotten.register(frozen, key);
    return frozen;
  }

  /** How many deck contents are held now (for tests and the console). */
  get size(): number {
    return this.byContent.size;
  }
}

/** Freezes an item deeply, with its arrays and objects, because the items are the game's and may have any shape. */
function freezeItem<T>(item: T): T {
  if (item === null || typeof item !== 'object') return item;
  const copy = (
    Array.isArray(item) ? item.map(freezeItem) : Object.fromEntries(Object.entries(item).map(([k, v]) => [k, freezeItem(v)]))
  ) as T;
  return Object.freeze(copy);
}
