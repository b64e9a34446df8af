// A model of PostgreSQL for the trivia rules' property tests: it applies committed writes the way
// libs/persistence does (trivia.store.ts turns each write into one repository statement) and
// reads them back as RoomRepository.loadRooms would. Each method names the statement it mirrors.
// A statement's now() is a Stamp: the millisecond the rules decided in (a real commit lands a
// little later), after every statement before it (PostgreSQL's microseconds tell them apart).
import { Question, Settings, TriviaRecord, TriviaResult, Write } from '../src';

interface RoomRow {
  readonly id: string;
  readonly code: string;
  readonly hostName: string;
  readonly settings: TriviaRecord['settings'];
  phase: string;
  gamesPlayed: number;
  lastGameAt: Stamp;
  closedAt?: Stamp;
}

interface PlayerRow {
  readonly id: string;
  readonly name: string;
  readonly joinedAt: Stamp;
  leftAt?: Stamp;
  leftReason?: string;
  leftAtMs?: number;
  leftCommandId?: string | null;
}

interface GameRow {
  readonly id: string;
  readonly no: number;
  readonly questionIds: readonly number[];
  readonly roster: readonly string[];
  readonly startedAt: Stamp;
  readonly startedAtMs: number;
  readonly startCommandId: string | null;
  finishedAt?: Stamp;
}

type Key = string;

/** now() of one statement: its millisecond, and its place among the statements of that millisecond. */
interface Stamp {
  readonly ms: number;
  readonly seq: number;
}

const after = (a: Stamp, b: Stamp): boolean => a.ms > b.ms || (a.ms === b.ms && a.seq >= b.seq);
const byTime = (a: Stamp, b: Stamp): number => a.ms - b.ms || a.seq - b.seq;

export class TriviaDatabase {
  private readonly room: RoomRow;
  private statements = 0;
  private readonly players: PlayerRow[] = [];
  private readonly games: GameRow[] = [];
  // Tables keyed by their primary key: an insert that conflicts does nothing (ON CONFLICT DO NOTHING).
  private readonly answers = new Map<Key, { gameId: string; playerId: string; question: number; choice: number; at: number; commandId: string }>();
  private readonly closes = new Map<Key, { gameId: string; index: number; at: number }>();
  private readonly votes = new Map<Key, { gameId: string; playerId: string; vote: boolean; at: number; commandId: string | null }>();
  private readonly results = new Map<Key, { gameId: string; playerId: string; score: number }>();

  constructor(
    room: { id: string; code: string; hostName: string; settings: Settings },
    createdAt: number,
    /** The questions table: one deck, in position order. */
    private readonly deck: readonly Question[],
    /** random() of the draw. */
    private readonly random: () => number,
  ) {
    const { rematchSeconds: _r, expirySeconds: _e, ...settings } = room.settings;
    // RoomRepository.createRoom: phase and last_game_at take their defaults.
    this.room = { id: room.id, code: room.code, hostName: room.hostName, settings, phase: 'lobby', gamesPlayed: 0, lastGameAt: { ms: createdAt, seq: 0 } };
  }

  /** TriviaStore.commit: one statement per write, in order, each with its result. */
  commit(writes: readonly Write[], at: number): TriviaResult[] {
    return writes.map((w) => this.commitOne(w, { ms: at, seq: ++this.statements }));
  }

  gameResults(gameId: string): { playerId: string; score: number }[] {
    return [...this.results.values()].filter((r) => r.gameId === gameId);
  }

  private commitOne(write: Write, now: Stamp): TriviaResult {
    const done: TriviaResult = { kind: 'done' };
    switch (write.kind) {
      case 'addPlayer':
        // PlayerRepository.addPlayer: a plain insert, joined_at = now().
        this.players.push({ id: write.playerId, name: write.name, joinedAt: now });
        return done;
      case 'startGame':
        return { kind: 'startGame', started: this.startGame(write, now) };
      case 'recordAnswers':
        // AnswerRepository.recordAnswers: answers and the early close, both ON CONFLICT DO NOTHING.
        for (const a of write.answers) {
          insert(this.answers, `${write.gameId}/${a.question}/${a.playerId}`, {
            gameId: write.gameId, playerId: a.playerId, question: a.question, choice: a.choice, at: a.at, commandId: a.commandId,
          });
        }
        if (write.close) this.recordClose(write.close);
        return done;
      case 'closeQuestion':
        // AnswerRepository.recordClose.
        this.recordClose(write.close);
        return done;
      case 'finishGame': {
        // GameRepository.finishGame: results (DO NOTHING), finished_at once, the room finished unless closed.
        for (const s of write.standings) insert(this.results, `${write.gameId}/${s.playerId}`, { gameId: write.gameId, playerId: s.playerId, score: s.score });
        const game = this.games.find((g) => g.id === write.gameId);
        if (game) game.finishedAt ??= now;
        if (this.room.id === write.roomId && this.room.closedAt === undefined) {
          this.room.phase = 'finished';
          this.room.lastGameAt = now;
        }
        return done;
      }
      case 'recordVotes': {
        // RematchRepository.recordVotes (through TriviaStore: the departure's room is the decision's).
        for (const v of write.votes) {
          insert(this.votes, `${write.gameId}/${v.playerId}`, { gameId: write.gameId, playerId: v.playerId, vote: v.vote, at: v.at, commandId: v.commandId });
        }
        const accepted = write.decision?.accepted ? write.decision : undefined;
        if (write.departure) this.depart(write.decision?.roomId ?? '', write.departure, now);
        if (accepted) {
          for (const p of this.players) {
            if (this.room.id === accepted.roomId && accepted.releaseIds.includes(p.id) && p.leftAt === undefined) {
              p.leftAt = now;
              p.leftReason = 'released';
            }
          }
          if (this.room.id === accepted.roomId && this.room.closedAt === undefined) {
            this.room.phase = 'lobby';
            this.room.lastGameAt = now;
          }
        }
        return done;
      }
      case 'releasePlayers':
        // PlayerRepository.releasePlayer: the seat goes (once), with the early close it caused.
        this.depart(write.roomId, write.departure, now);
        if (write.close) this.recordClose(write.close);
        return done;
      case 'closeRoom':
        // RoomRepository.closeRoom: an open room only.
        if (this.room.id === write.roomId && this.room.closedAt === undefined) {
          this.room.closedAt = now;
          this.room.phase = 'closed';
        }
        return done;
    }
  }

  /** GameRepository.startGame: draws (unplayed first, then at random), records the game, leaves the lobby. */
  private startGame(w: Extract<Write, { kind: 'startGame' }>, now: Stamp): { gameId: string; questions: Question[] } | null {
    const drawn = this.deck
      .map((q) => ({ q, avoided: w.avoidQuestionIds.includes(q.id), r: this.random() }))
      .sort((a, b) => Number(a.avoided) - Number(b.avoided) || a.r - b.r)
      .slice(0, w.questionCount)
      .map((d) => d.q);
    if (drawn.length === 0 || this.room.id !== w.roomId || this.room.closedAt !== undefined) return null;
    const id = `game-${w.gameNo}`;
    this.games.push({ id, no: w.gameNo, questionIds: drawn.map((q) => q.id), roster: [...w.roster], startedAt: now, startedAtMs: w.startedAt, startCommandId: w.commandId });
    this.room.phase = 'question';
    this.room.gamesPlayed = w.gameNo;
    this.room.lastGameAt = now;
    return { gameId: id, questions: drawn };
  }

  private depart(roomId: string, d: { playerId: string; reason: string; at: number; commandId: string | null }, now: Stamp): void {
    const p = this.players.find((row) => this.room.id === roomId && row.id === d.playerId && row.leftAt === undefined);
    if (!p) return;
    p.leftAt = now;
    p.leftReason = d.reason;
    p.leftAtMs = d.at;
    p.leftCommandId = d.commandId;
  }

  private recordClose(c: { gameId: string; index: number; at: number }): void {
    insert(this.closes, `${c.gameId}/${c.index}`, { gameId: c.gameId, index: c.index, at: c.at });
  }

  /** RoomRepository.loadRooms for this room. */
  load(): TriviaRecord {
    const room = this.room;
    // The last game: ORDER BY game_no DESC LIMIT 1.
    const lg = [...this.games].sort((a, b) => b.no - a.no)[0];
    const players = this.players
      .filter((p) => p.leftAt === undefined || (lg !== undefined && after(p.leftAt, lg.startedAt)))
      .sort((a, b) => byTime(a.joinedAt, b.joinedAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((p) => ({
        id: p.id,
        name: p.name,
        // left_at_ms, or left_at when the statement recorded none (a rematch's release).
        left: p.leftAt === undefined ? null : { at: p.leftAtMs ?? p.leftAt.ms, reason: p.leftReason!, commandId: p.leftCommandId ?? null },
      }));
    return {
      roomId: room.id,
      code: room.code,
      hostName: room.hostName,
      settings: room.settings,
      phase: room.phase,
      closed: room.closedAt !== undefined,
      gamesPlayed: room.gamesPlayed,
      lastGameAt: room.lastGameAt.ms,
      playedQuestionIds: this.games.flatMap((g) => g.questionIds),
      // json_build_object writes a null `left`, as the SQL does.
      players: players as TriviaRecord['players'],
      // Without a game, the SQL's CASE yields null, as `left` does.
      lastGame: !lg ? (null as unknown as undefined) : {
        id: lg.id,
        no: lg.no,
        roster: lg.roster,
        startedAt: lg.startedAtMs,
        startCommandId: lg.startCommandId,
        questions: lg.questionIds.map((id) => this.deck.find((q) => q.id === id)!),
        answers: [...this.answers.values()].filter((a) => a.gameId === lg.id).map(({ gameId: _g, ...a }) => a),
        closes: [...this.closes.values()].filter((c) => c.gameId === lg.id).map(({ index, at }) => ({ index, at })),
        votes: [...this.votes.values()].filter((v) => v.gameId === lg.id).map(({ gameId: _g, ...v }) => v),
      },
      // Written only by a deadline taken late after a restart; a live history has none.
      lateDeadlines: [],
    };
  }
}

function insert<T>(table: Map<Key, T>, key: Key, row: T): void {
  if (!table.has(key)) table.set(key, row);
}
