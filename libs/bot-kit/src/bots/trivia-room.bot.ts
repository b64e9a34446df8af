import type { WireFrame } from '@game-rooms/client';
import { GameEvent, SeatClient, SeatClientOptions } from '../seat-client';
import { CommandRecord, epochMs, RecordSink, RecordTags } from './command-record';
import { HUMAN_PAUSE, HumanPause, pauseMs, sleep } from './human-pause';
import { timedHttp } from './timed-http';

export interface TriviaRoomBotOptions {
  readonly baseUrl: string;
  /** How many players are in the room, not counting the host. */
  readonly seats: number;
  readonly questionCount: number;
  readonly secondsPerQuestion: number;
  readonly revealSeconds: number;
  /** Thinking time before each answer. Default: 300 ms plus up to 3,200 ms. */
  readonly pause?: HumanPause;
  readonly commandTimeoutMs?: number;
  /** Each socket pings this often. 0 means never. */
  readonly keepAliveMs?: number;
  /** The wire profile every socket of the room asks for and decodes. Default: plain JSON. */
  readonly wire?: SeatClientOptions['wire'];
  readonly record?: RecordSink;
  readonly tags?: RecordTags;
  readonly random?: () => number;
  /**
   * Asked after each game's rematch vote, in which every seat votes yes. True plays the rematch in
   * the same room, and false makes the seats leave. Default: one game.
   */
  readonly anotherGame?: (gamesPlayed: number) => boolean;
  /** Aborting drops every socket at once (the run is over), and the room reports `aborted`. */
  readonly signal?: AbortSignal;
  readonly onGame?: (game: GameReport) => void;
  /** Called once every socket of the room is open and in its seat. */
  readonly onSeated?: () => void;
  /** More of the room's opening body (a `deckId`, `order`, `pace`...), over the bench's own. */
  readonly opening?: Readonly<Record<string, unknown>>;
  /** Sees every frame of every socket of the room; `socket` names it (`CODE/host`, `CODE/3`). */
  readonly onFrame?: (socket: string, frame: WireFrame) => void;
  /** Hears each answer's outcome with its question's kind (section 13). */
  readonly onAnswer?: (kind: string, status: number | null) => void;
}

/** The simultaneous rematch votes of one game, sent in one turn, with their replies timed one by one. */
export interface RematchReport {
  readonly sentAt: readonly number[];
  readonly repliedAt: readonly (number | null)[];
  readonly statuses: readonly (number | null)[];
  /** The last send minus the first send (it should be well under 1 ms). */
  readonly sendSpreadMs: number;
  /** The last reply minus the first reply, or null when a vote got no reply. */
  readonly replySpreadMs: number | null;
  readonly accepted: boolean | null;
}

export interface GameReport {
  readonly room: string;
  /** The game's number in the room: 1 for the first game, 2 for its rematch, and so on. */
  readonly game: number;
  readonly startedAt: number;
  readonly finishedAt: number;
  readonly rematch: RematchReport;
}

export interface RoomReport {
  readonly room?: string;
  readonly games: GameReport[];
  readonly error?: string;
  readonly aborted: boolean;
}

/**
 * One room played by bots the way people play it. The host opens the room over HTTP, and the
 * players join by code and connect. The host starts once every seat is in. Each player answers
 * every question after a human pause. At the end every seat votes on the rematch in the same
 * moment, and then, unless another game is wanted, the seats leave one by one and the host closes
 * the room. Every command, HTTP call and connect is timed and recorded.
 */
export async function playTriviaRoom(o: TriviaRoomBotOptions): Promise<RoomReport> {
  const random = o.random ?? Math.random;
  const pause = o.pause ?? HUMAN_PAUSE;
  const commandTimeoutMs = o.commandTimeoutMs ?? 10_000;
  // The longest a bot may wait for the next event: a whole question and its reveal, plus some slack.
  const eventTimeoutMs = (o.secondsPerQuestion + o.revealSeconds) * 1000 + commandTimeoutMs + 10_000;
  const games: GameReport[] = [];
  const sockets: SeatClient[] = [];
  const dropAll = () => sockets.forEach((s) => s.terminate());
  o.signal?.addEventListener('abort', dropAll, { once: true });
  let code: string | undefined;
  let hostToken: string | undefined;
  let closedByUs = false;
  let tags: RecordTags = { ...o.tags };
  const http = <T = any>(method: string, path: string, type: string, body?: unknown, headers?: Record<string, string>, record = o.record) =>
    timedHttp<T>(o.baseUrl, method, path, { type, body, headers, timeoutMs: commandTimeoutMs, record, tags });

  try {
    // The room's code is known only once the reply is in, so its record is held until then.
    let createRecord: CommandRecord | undefined;
    const created = await http<{ code: string; hostToken: string }>(
      'POST',
      '/api/rooms',
      'http POST /api/rooms',
      { ...benchRoomOpening(o), ...o.opening },
      undefined,
      (r) => (createRecord = r),
    );
    if (createRecord) o.record?.({ ...createRecord, ...(created.body?.code ? { room: created.body.code } : {}) });
    if (created.status !== 201 || !created.body)
      throw new Error(`could not open a room: HTTP ${created.status ?? '-'} ${created.error ?? ''}`);
    code = created.body.code;
    hostToken = created.body.hostToken;
    tags = { ...o.tags, room: code };

    const seats: { playerId: string; playerToken: string }[] = [];
    for (let i = 0; i < o.seats; i++) {
      const joined = await http<{ playerId: string; playerToken: string }>(
        'POST',
        `/api/rooms/${code}/players`,
        'http POST /api/rooms/:code/players',
        {
          name: `Bot ${i + 1}`,
        },
      );
      if (joined.status !== 201 || !joined.body)
        throw new Error(`seat ${i + 1} could not join ${code}: HTTP ${joined.status ?? '-'} ${joined.error ?? ''}`);
      seats.push(joined.body);
    }
    throwIfAborted(o.signal);

    // What the host sees of the seats. The host starts only when every seat is connected.
    const connected = new Map<string, boolean>();
    const trackSeats = (e: GameEvent) => {
      if (e.type === 'room.state') for (const p of e.data.players ?? []) connected.set(p.id, !!p.connected);
      else if (e.type === 'player.presence') connected.set(e.data.playerId, !!e.data.connected);
      else if (e.type === 'player.joined') connected.set(e.data.player.id, !!e.data.player.connected);
    };
    const common = {
      commandTimeoutMs,
      timeoutMs: eventTimeoutMs,
      history: false,
      record: o.record,
      keepAliveMs: o.keepAliveMs,
      wire: o.wire,
    };
    const frames = (seat: string) => (o.onFrame ? { onFrame: (f: WireFrame) => o.onFrame!(`${code}/${seat}`, f) } : {});
    const host = await SeatClient.connect(o.baseUrl, hostToken, {
      ...common,
      ...frames('host'),
      room: code,
      tags: { ...tags, seat: 'host' },
      idPrefix: 'h',
      onEvent: trackSeats,
    });
    sockets.push(host);
    await host.nextEvent('room.state');
    const players: SeatClient[] = [];
    for (let i = 0; i < seats.length; i++) {
      throwIfAborted(o.signal);
      const p = await SeatClient.connect(o.baseUrl, seats[i].playerToken, {
        ...common,
        ...frames(String(i + 1)),
        room: code,
        tags: { ...tags, seat: i + 1 },
        idPrefix: `p${i + 1}`,
      });
      sockets.push(p);
      players.push(p);
      await p.nextEvent('room.state');
    }
    const everySeatIn = () => seats.every((s) => connected.get(s.playerId) === true);
    await host.until(everySeatIn, 'every seat connected');
    o.onSeated?.();

    for (let game = 1; ; game++) {
      throwIfAborted(o.signal);
      await host.until(everySeatIn, 'every seat connected');
      const start = await host.command('room.start');
      if (start.status !== 200)
        throw new Error(`room.start answered ${start.status ?? (start.timedOut ? 'nothing (timed out)' : start.error)}`);
      const startedAt = epochMs();

      // Each player answers every question after a human pause, then waits for the vote.
      await Promise.all(
        players.map(async (p) => {
          for (let q = 0; q < o.questionCount; q++) {
            const open = await p.nextEvent('question.open', (e) => e.data.index === q);
            await sleep(pauseMs(pause, random), o.signal);
            throwIfAborted(o.signal);
            const answered = await p.command('room.answer', { question: q, ...triviaAnswer(open.data, random) });
            o.onAnswer?.(open.data.kind ?? 'choice', answered.status);
          }
          await p.nextEvent('rematch.open');
        }),
      );
      const finishedAt = epochMs();

      // Every seat votes in the same moment: the frames are built first, and then written back to back.
      const votes = players.map((p) => p.prepare('room.rematch', { vote: true }));
      for (const v of votes) v.send();
      const results = await Promise.all(votes.map((v) => v.result));
      let accepted: boolean | null = null;
      try {
        accepted = !!(await host.nextEvent('rematch.decided')).data.accepted;
      } catch {
        accepted = null;
      }
      const sentAt = results.map((r) => r.sentAt);
      const repliedAt = results.map((r) => r.repliedAt ?? null);
      const replied = repliedAt.filter((t): t is number => t !== null);
      const rematch: RematchReport = {
        sentAt,
        repliedAt,
        statuses: results.map((r) => r.status),
        sendSpreadMs: Math.max(...sentAt) - Math.min(...sentAt),
        replySpreadMs: replied.length === results.length && replied.length > 0 ? Math.max(...replied) - Math.min(...replied) : null,
        accepted,
      };
      const report: GameReport = { room: code, game, startedAt, finishedAt, rematch };
      games.push(report);
      o.onGame?.(report);

      if (!(accepted && !o.signal?.aborted && o.anotherGame?.(game))) break;
      await host.nextEvent('room.state', (e) => e.data.phase === 'lobby');
    }

    // The seats leave one by one, then the host closes the room.
    for (const p of players) {
      throwIfAborted(o.signal);
      if (!p.isOpen) continue;
      const left = await p.command('room.leave');
      if (left.status === 200) await p.waitClosed(commandTimeoutMs).catch(() => undefined);
    }
    closedByUs = true;
    await http('DELETE', `/api/rooms/${code}`, 'http DELETE /api/rooms/:code', undefined, { authorization: `Bearer ${hostToken}` });
    host.close();
    return { room: code, games, aborted: false };
  } catch (err) {
    const aborted = !!o.signal?.aborted;
    return { room: code, games, aborted, ...(aborted ? {} : { error: err instanceof Error ? err.message : String(err) }) };
  } finally {
    o.signal?.removeEventListener('abort', dropAll);
    for (const s of sockets) s.close();
    // Close a room the bots gave up on, so that it does not linger until its expiry. This is neither timed nor recorded.
    if (code && hostToken && !closedByUs && !o.signal?.aborted) {
      await timedHttp(o.baseUrl, 'DELETE', `/api/rooms/${code}`, {
        type: 'cleanup',
        headers: { authorization: `Bearer ${hostToken}` },
        timeoutMs: commandTimeoutMs,
      });
    }
  }
}

/** Typed answers a bot picks from: some right for the bench's text questions, some not. */
const TYPED = ['Paris', 'paris', 'Lyon', 'élan vital', 'Elan', 'Marseille'];

/**
 * What a bot answers to an open question, by its kind (PROTOCOL.md section 13): one choice, a set
 * of choices (`multi`), or a typed text (`text`), at random.
 */
export function triviaAnswer(open: { kind?: string; choices?: unknown[] }, random: () => number): Record<string, unknown> {
  const n = Array.isArray(open.choices) ? open.choices.length : 4;
  if (open.kind === 'text') return { text: TYPED[Math.floor(random() * TYPED.length)] };
  if (open.kind !== 'multi') return { choice: Math.floor(random() * n) };
  const picked = Array.from({ length: n }, (_, i) => i).filter(() => random() < 0.5);
  return { choices: picked.length ? picked : [Math.floor(random() * n)] };
}

/** What a bench host asks for when it opens a room: the bots' clocks, and space for exactly its seats. */
export function benchRoomOpening(
  o: Pick<TriviaRoomBotOptions, 'seats' | 'questionCount' | 'secondsPerQuestion' | 'revealSeconds'>,
): Record<string, unknown> {
  return {
    hostName: 'Bench host',
    questionCount: o.questionCount,
    secondsPerQuestion: o.secondsPerQuestion,
    revealSeconds: o.revealSeconds,
    maxPlayers: Math.max(1, o.seats),
    minPlayers: Math.min(2, Math.max(1, o.seats)),
  };
}

function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new Error('aborted');
}
