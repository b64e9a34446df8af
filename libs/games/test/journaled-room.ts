// The harness now lives in the engine's testing entry, because testGame() is built on it. The games'
// property tests still import it from here, together with a jest assertion on a rebuild.
import { canonical, JournaledRoom } from '@app/room-engine/testing';

export { canonical, JournaledRoom, MAX_CATCH_UP, replayJournal, type Replayed } from '@app/room-engine/testing';

type Command = { readonly id: string; readonly type: string };

/**
 * Asserts that the journal rebuilds this room from `from`. No input is refused and the state is the
 * same (as JSON). From the opening, the replay also gives every reply the room gave. From a
 * snapshot it does not, because keeping those replies is the engine's job.
 */
export function expectRebuilt<S, C extends Command>(room: JournaledRoom<S, C>, from: 'opening' | 'snapshot'): void {
  const replayed = room.replayed(from);
  expect(replayed.refused).toEqual([]);
  expect(canonical(replayed.state)).toBe(canonical(room.state));
  if (from === 'opening') expect(replayed.replies).toEqual(room.acks);
}
