import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { DeckEntity } from './deck.entity';

/**
 * A room: its game, code, seed and what opening it took (`settings`). The game-specific columns
 * are those of rooms opened before the journal (migration 1764849600000), read only to bring such
 * a room back once.
 */
@Entity({ name: 'rooms' })
@Check('rooms_game_columns', `settings IS NOT NULL
          OR (player_id IS NOT NULL AND table_settings IS NOT NULL AND checkpoint IS NOT NULL)
          OR (host_name IS NOT NULL AND deck_id IS NOT NULL AND question_count IS NOT NULL AND seconds_per_question IS NOT NULL
              AND reveal_seconds IS NOT NULL AND max_players IS NOT NULL AND min_players IS NOT NULL)`)
// A code names one open room; closed rooms free their code.
@Index('rooms_open_code', ['code'], { unique: true, where: 'closed_at IS NULL' })
// The migration's second column is descending, which an entity cannot say (the drift spec checks it).
@Index('rooms_code', ['code', 'createdAt'])
// A built-in deck is referenced (its id and content hash), never both referenced and copied.
@Check('rooms_deck_reference', 'deck_hash IS NULL OR (deck_id IS NOT NULL AND deck IS NULL)')
// The pruning's two scans (migration 1764882000000).
@Index('rooms_closed_unpruned', ['closedAt'], { where: 'closed_at IS NOT NULL AND pruned_at IS NULL' })
@Index('rooms_pruned', ['closedAt'], { where: 'pruned_at IS NOT NULL' })
export class RoomEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'rooms_pkey' })
  id: string;

  @Column({ type: 'character', length: 6 })
  code: string;

  @Column({ name: 'host_name', type: 'text', nullable: true })
  hostName: string | null;

  @Column({ name: 'deck_id', type: 'uuid', nullable: true })
  @ForeignKey(() => DeckEntity, { name: 'rooms_deck_id_fkey' })
  deckId: string | null;

  @Column({ name: 'question_count', type: 'integer', nullable: true })
  questionCount: number | null;

  @Column({ name: 'seconds_per_question', type: 'double precision', nullable: true })
  secondsPerQuestion: number | null;

  @Column({ name: 'reveal_seconds', type: 'double precision', nullable: true })
  revealSeconds: number | null;

  @Column({ name: 'max_players', type: 'integer', nullable: true })
  maxPlayers: number | null;

  @Column({ name: 'min_players', type: 'integer', nullable: true })
  minPlayers: number | null;

  @Column({ type: 'text', default: 'lobby' })
  phase: string;

  @Column({ name: 'games_played', type: 'integer', default: 0 })
  gamesPlayed: number;

  @Column({ name: 'created_at', type: 'timestamp with time zone', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'last_game_at', type: 'timestamp with time zone', default: () => 'now()' })
  lastGameAt: Date;

  @Column({ name: 'closed_at', type: 'timestamp with time zone', nullable: true })
  closedAt: Date | null;

  @Column({ name: 'closed_reason', type: 'text', nullable: true })
  closedReason: string | null;

  @Column({ type: 'text' })
  game: string;

  // The migration's default, `floor(random() * 2147483647)::integer`, as TypeORM reads it back (without casts).
  @Column({ type: 'integer', default: () => '(floor((random() * (2147483647))))' })
  seed: number;

  @Column({ name: 'player_id', type: 'text', nullable: true })
  playerId: string | null;

  @Column({ name: 'table_settings', type: 'jsonb', nullable: true })
  tableSettings: unknown;

  @Column({ type: 'jsonb', nullable: true })
  checkpoint: unknown;

  @Column({ name: 'closed_command_id', type: 'text', nullable: true })
  closedCommandId: string | null;

  /** What opening the room took (the game module's settings), once rooms open through it. */
  @Column({ type: 'jsonb', nullable: true })
  settings: unknown;

  /** The copy of the deck the room plays from, for a game that plays from one (a host's deck). */
  @Column({ type: 'jsonb', nullable: true })
  deck: unknown;

  /** A built-in deck the room plays, by `deckId` and this SHA-256 of its content (base64url), instead of a copy. */
  @Column({ name: 'deck_hash', type: 'text', nullable: true })
  deckHash: string | null;

  /** When the closed room's journal, snapshot and deck copy were removed (after the results window). */
  @Column({ name: 'pruned_at', type: 'timestamp with time zone', nullable: true })
  prunedAt: Date | null;
}
