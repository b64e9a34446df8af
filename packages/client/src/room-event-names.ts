// The names of the events every room sends, kept apart from their schemas, so that a page that
// only listens for them does not ship zod (web-admin/http-schemas-pure.ts drops room-events.ts
// from its bundle).

/** The room's clocks stopped at `since` (server time, epoch ms), and nothing runs out until `room.resumed`. */
export const ROOM_PAUSED = 'room.paused';
/** A write succeeded again. Every clock moved on by `heldMs`, and a fresh state frame follows. */
export const ROOM_RESUMED = 'room.resumed';
