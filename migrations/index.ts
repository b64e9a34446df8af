import { InitialSchema1764489600000 } from './1764489600000-initial-schema';
import { BuiltinDeck1764489600001 } from './1764489600001-builtin-deck';
import { RoomRecovery1764576000000 } from './1764576000000-room-recovery';
import { CardTables1764662400000 } from './1764662400000-card-tables';
import { OrderedCommits1764748800000 } from './1764748800000-ordered-commits';
import { Instances1764752400000 } from './1764752400000-instances';
import { GuardByKey1764838800000 } from './1764838800000-guard-by-key';
import { RoomHandoff1764842400000 } from './1764842400000-room-handoff';
import { RoomJournal1764846000000 } from './1764846000000-room-journal';
import { JournalRooms1764849600000 } from './1764849600000-journal-rooms';
import { DeckEditTokens1764856800000 } from './1764856800000-deck-edit-tokens';
import { RefusedCommands1764860400000 } from './1764860400000-refused-commands';
import { JournalWithoutRoomKeys1764864000000 } from './1764864000000-journal-without-room-keys';
import { HeartbeatWithoutRoomLists1764874800000 } from './1764874800000-heartbeat-without-room-lists';
import { JournalClockHolds1764878400000 } from './1764878400000-journal-clock-holds';
import { Retention1764882000000 } from './1764882000000-retention';
import { DecksByToken1764889260000 } from './1764889260000-decks-by-token';
import { RetirePreJournal1764892800000 } from './1764892800000-retire-pre-journal';
import { DeckRetention1764896400000 } from './1764896400000-deck-retention';
import { QuestionKinds1764900000000 } from './1764900000000-question-kinds';
import { DeckImages1764903600000 } from './1764903600000-deck-images';
import { DeckImagesByDeck1764907200000 } from './1764907200000-deck-images-by-deck';

export { BUILTIN_DECK_ID } from './1764489600001-builtin-deck';

/** Every migration, in order. The app hands them to the data source, which runs them at start. */
export const MIGRATIONS = [
  InitialSchema1764489600000,
  BuiltinDeck1764489600001,
  RoomRecovery1764576000000,
  CardTables1764662400000,
  OrderedCommits1764748800000,
  Instances1764752400000,
  GuardByKey1764838800000,
  RoomHandoff1764842400000,
  RoomJournal1764846000000,
  JournalRooms1764849600000,
  DeckEditTokens1764856800000,
  RefusedCommands1764860400000,
  JournalWithoutRoomKeys1764864000000,
  HeartbeatWithoutRoomLists1764874800000,
  JournalClockHolds1764878400000,
  Retention1764882000000,
  DecksByToken1764889260000,
  RetirePreJournal1764892800000,
  DeckRetention1764896400000,
  QuestionKinds1764900000000,
  DeckImages1764903600000,
  DeckImagesByDeck1764907200000,
];
