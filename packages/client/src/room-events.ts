import { z } from 'zod';
import { ROOM_PAUSED, ROOM_RESUMED } from './room-event-names.js';
import type { EventsOf } from './schema.js';

// Events every room sends, whatever its game (PROTOCOL.md section 14; docs/protocol.md section 11).
// They say that the room's clocks are held while its writes fail, and that they move on when a
// write succeeds again.

export const ROOM_EVENTS = {
  [ROOM_PAUSED]: z.object({
    /** Why the clocks are held: `storage` means the database cannot record anything now. */
    reason: z.enum(['storage']),
    since: z.number(),
  }),
  [ROOM_RESUMED]: z.object({ heldMs: z.number() }),
} as const;

/** What a client receives of the events every room sends, by type. */
export type RoomEvents = EventsOf<typeof ROOM_EVENTS>;

/** The type of each event every room sends. */
export const ROOM_EVENT_TYPES = Object.keys(ROOM_EVENTS) as (keyof typeof ROOM_EVENTS)[];
