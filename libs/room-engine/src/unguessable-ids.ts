import { createHmac } from 'node:crypto';

/**
 * Makes the ids a room's rules hand out (a finished game's results link). Clients cannot guess
 * them, because they come from a secret the server keeps. A replay gets the same ids, because they
 * come from the room and the decision's moment. The n-th id of one decision is
 * HMAC-SHA-256(secret, "now:n"), shaped as a version-4 UUID. Without a secret (in a test of the
 * rules alone), the ids come from the room's seed instead.
 */
export function unguessableIds(secret: string | undefined, seed: number, now: number): () => string {
  let n = 0;
  return () => {
    const digest = createHmac('sha256', secret ?? `seed:${seed}`)
      .update(`${now}:${n++}`)
      .digest();
    digest[6] = (digest[6] & 0x0f) | 0x40;
    digest[8] = (digest[8] & 0x3f) | 0x80;
    const hex = digest.subarray(0, 16).toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
  };
}
