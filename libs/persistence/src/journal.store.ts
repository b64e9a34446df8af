import { JournalInput, JournalStep, RoomPosition, RoomStore } from '@app/room-engine';
import { JournalEntry, JournalRepository } from './repositories/journal.repository';

/** The name of a step that carries a command or a proposal: the statement a durable command waits for. */
export const APPEND_STATEMENT = 'JournalRepository.append';
/**
 * The name of a step that carries neither: a boundary the clock reached, a finished game, a close,
 * or a presence change that decided something.
 */
export const RECORD_STATEMENT = 'JournalRepository.record';

/**
 * The engine's RoomStore, the same for every game. Each step of a room is one append to the
 * journal, on the room's ordered path, carrying the room's position and lease fence. The appends
 * of many rooms sent in the same turn share one statement. Steps that carry commands have a
 * different name from those the clock or presence took, so that round trips per command can be
 * counted.
 */
export class JournalStore implements RoomStore {
  constructor(private readonly journal: JournalRepository) {}

  async append(step: JournalStep, at: RoomPosition, timeoutMs: number): Promise<void> {
    await this.journal.append(step.inputs.map(entryOf), at, timeoutMs, {
      ...(step.snapshot ? { snapshot: { atMs: step.snapshot.at, state: step.snapshot.snapshot } } : {}),
      ...(step.finished
        ? {
            result: {
              game: step.finished.game,
              gameNo: step.finished.no,
              summary: step.finished.summary,
              ...(step.finished.id ? { id: step.finished.id } : {}),
            },
          }
        : {}),
      ...(step.closed !== undefined ? { closed: step.closed } : {}),
      name: step.inputs.some((i) => i.kind === 'command' || i.kind === 'proposal') ? APPEND_STATEMENT : RECORD_STATEMENT,
    });
  }
}

function entryOf(input: JournalInput): JournalEntry {
  return {
    kind: input.kind,
    atMs: input.at,
    actor: input.kind === 'command' ? input.actor : null,
    commandId: input.kind === 'command' ? input.commandId : null,
    body: input.body,
  };
}

/** A journaled entry as it was read back, in the engine's terms. */
export function inputOf(entry: JournalEntry): JournalInput {
  switch (entry.kind) {
    case 'command':
      return { kind: 'command', at: entry.atMs, actor: entry.actor!, commandId: entry.commandId!, body: entry.body };
    case 'proposal':
      return { kind: 'proposal', at: entry.atMs, body: entry.body as { name: string; args: unknown } };
    case 'signal':
      return { kind: 'signal', at: entry.atMs, body: entry.body as Extract<JournalInput, { kind: 'signal' }>['body'] };
    case 'late_deadline':
      return { kind: 'late_deadline', at: entry.atMs, body: entry.body as { due: number } };
    case 'clock_held':
      return { kind: 'clock_held', at: entry.atMs, body: entry.body as { ms: number } };
  }
}
