// The names of the events every room sends, apart from their schemas: a page that only listens
// for them does not ship zod (web-admin/http-schemas-pure.ts drops room-events.ts from its bundle).

/** The room's clocks stopped at `since` (server time, epoch ms): nothing runs out until `room.resumed`. */
export const ROOM_PAUSED = 'room.paused';
/** A write succeeded again: every clock moved on by `heldMs`, and a fresh state frame follows. */
export const ROOM_RESUMED = 'room.resumed';
