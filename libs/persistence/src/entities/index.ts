import { DeckEntity } from './deck.entity';
import { DeckImageEntity } from './deck-image.entity';
import { FinishedGameEntity } from './finished-game.entity';
import { InstanceEntity } from './instance.entity';
import { JournalEntryEntity } from './journal-entry.entity';
import { RoomHeadEntity } from './room-head.entity';
import { RoomSnapshotEntity } from './room-snapshot.entity';
import { RoomEntity } from './room.entity';

export {
  DeckEntity,
  DeckImageEntity,
  FinishedGameEntity,
  InstanceEntity,
  JournalEntryEntity,
  RoomHeadEntity,
  RoomSnapshotEntity,
  RoomEntity,
};

/**
 * The tables the entities describe, as the migrations create them (the drift spec keeps the two in
 * step). The SQL stays in the repositories. The entities state the schema a second time, and that
 * statement is checked.
 */
export const PERSISTENCE_ENTITIES = [
  RoomEntity,
  RoomHeadEntity,
  InstanceEntity,
  JournalEntryEntity,
  RoomSnapshotEntity,
  FinishedGameEntity,
  DeckEntity,
  DeckImageEntity,
];
