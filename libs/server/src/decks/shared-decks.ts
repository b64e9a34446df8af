import { createHash } from 'node:crypto';

/**
 * One frozen copy in memory of each deck content that live rooms play. A room keeps its own copy
 * of a host's deck in the database (an edit later changes no room), or names a built-in one by its
 * content's hash; either way thousands of rooms opened from the same deck hold the same questions:
 * a parsed copy per room was most of a room's memory (about 150 KB for the built-in deck) and most
 * of what a major GC marked. Copies are found
 * by their content's hash, so a room restored from its own row shares too, and one whose deck was
 * edited before it opened does not. Entries go when no room holds their copy any more.
 */
export class SharedDecks {
  private readonly byContent = new Map<string, WeakRef<readonly unknown[]>>();
  private readonly forgotten = new FinalizationRegistry<string>((key) => {
    if (this.byContent.get(key)?.deref() === undefined) this.byContent.delete(key);
  });

  /** The shared frozen copy of `items` (deeply equal to them). */
  share<T>(items: readonly T[]): readonly T[] {
    const key = createHash('sha256').update(JSON.stringify(items)).digest('base64url');
    const known = this.byContent.get(key)?.deref();
    // The same content is the same items, whatever type the caller gives them.
    if (known) return known as readonly T[];
    const frozen = Object.freeze(items.map(freezeItem));
    this.byContent.set(key, new WeakRef(frozen));
    this.forgotten.register(frozen, key);
    return frozen;
  }

  /** Deck contents held now (for tests and the console). */
  get size(): number {
    return this.byContent.size;
  }
}

/** An item frozen through and through (its arrays and objects too): the items are the game's, of any shape. */
function freezeItem<T>(item: T): T {
  if (item === null || typeof item !== 'object') return item;
  const copy = (
    Array.isArray(item) ? item.map(freezeItem) : Object.fromEntries(Object.entries(item).map(([k, v]) => [k, freezeItem(v)]))
  ) as T;
  return Object.freeze(copy);
}
