// PostgreSQL's text and jsonb refuse two things a JavaScript string may hold: the NUL character,
// and a lone surrogate (half of a pair, with no other half). A client's text that holds either is
// refused at the edge, with an error naming where it is. That way nothing a client sends can reach
// a statement that PostgreSQL would refuse, again and again, for the same room.

/** A NUL, or a surrogate that is not half of a pair. */
const UNSTORABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether PostgreSQL's text and jsonb accept this string. */
export function isStorableText(s: string): boolean {
  return !UNSTORABLE.test(s);
}

/** How deep `unstorablePath` looks into a value. A frame's data is far shallower. */
const MAX_DEPTH = 32;

/**
 * Why `value` (parsed JSON) cannot be stored, naming the place as a path from `at` (`data.text
 * holds a NUL character or a lone surrogate`). Returns undefined when every string and key in it
 * is storable.
 */
export function unstorable(value: unknown, at: string, depth = 0): string | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : `${at} holds a NUL character or a lone surrogate`;
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth >= MAX_DEPTH) return `${at} is nested more than ${MAX_DEPTH} levels deep`;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const why = unstorable(value[i], `${at}[${i}]`, depth + 1);
      if (why !== undefined) return why;
    }
    return undefined;
  }
  for (const [key, v] of Object.entries(value)) {
    if (!isStorableText(key)) return `a key of ${at} holds a NUL character or a lone surrogate`;
    const why = unstorable(v, `${at}.${key}`, depth + 1);
    if (why !== undefined) return why;
  }
  return undefined;
}
