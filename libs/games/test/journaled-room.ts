// The harness lives in the engine's testing entry now (testGame() is built on it); the games'
// property tests keep their import from here, with jest's assertion on a rebuild.
import { canonical, JournaledRoom } from '@app/room-engine/testing';

export { canonical, JournaledRoom, MAX_CATCH_UP, replayJournal, type Replayed } from '@app/room-engine/testing';

type Command = { readonly id: string; readonly type: string };

/**
 * The journal rebuilds this room from `from`: no input refused, the same state (as JSON), and,
 * from the opening, every reply the room gave (a snapshot's replies are the engine's to keep).
 */
export function expectRebuilt<S, C extends Command>(room: JournaledRoom<S, C>, from: 'opening' | 'snapshot'): void {
  const replayed = room.replayed(from);
  expect(replayed.refused).toEqual([]);
  expect(canonical(replayed.state)).toBe(canonical(room.state));
  if (from === 'opening') expect(replayed.replies).toEqual(room.acks);
}
