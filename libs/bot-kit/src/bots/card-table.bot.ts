import { WireProfile } from '@game-rooms/client';
import { SeatClient } from '../seat-client';
import { UpgradeRefused } from '../upgrade-refused';
import { RecordSink, RecordTags } from './command-record';
import { HUMAN_PAUSE, HumanPause, pauseMs, sleep } from './human-pause';
import { timedHttp } from './timed-http';

/** The table's settings as `POST /api/tables` takes them (PROTOCOL.md section 8). */
export interface CardTableSettings {
  readonly bots?: number;
  readonly actionSeconds?: number;
  readonly botThinkMs?: readonly [number, number];
  readonly handPauseMs?: number;
  readonly seed?: number;
}

export interface CardTableBotOptions {
  /** The base URL of the HTTP API. */
  readonly baseUrl: string;
  /** Where the socket connects, when that is not `baseUrl` (through an egress shaper, say). */
  readonly socketUrl?: string;
  readonly wire?: WireProfile;
  readonly table?: CardTableSettings;
  /** How long the human thinks before acting. */
  readonly pause?: HumanPause;
  readonly random?: () => number;
  readonly commandTimeoutMs?: number;
  readonly record?: RecordSink;
  readonly tags?: RecordTags;
  /** Tells the bot to stop playing. It then closes its table and its socket. */
  readonly signal?: AbortSignal;
  /** Hears of every frame the socket received: its kind (the decoded type, or `reply` for replies) and its UTF-8 length. */
  readonly onFrame?: (kind: string, bytes: number) => void;
  readonly onHandFinished?: () => void;
  /** Hears the close code when the server closed the socket (not the bot at the end). 4009 is an eviction. */
  readonly onClosed?: (code: number) => void;
  /** Hears when a command's frame was just handed to the socket. Its record follows when it is answered or given up. */
  readonly onCommandSent?: (type: string, sentAt: number) => void;
  /** Called once the socket is open and its first snapshot is in, with the profile that snapshot named. */
  readonly onSeated?: (wire: string | undefined) => void;
}

export interface CardTableReport {
  readonly table?: string;
  /** The profile the server said the socket got (from the first snapshot's `wire`). */
  readonly wire?: string;
  readonly actions: number;
  readonly hands: number;
  /** How the socket closed, when the server closed it (4009 means evicted). */
  readonly closeCode?: number;
  readonly error?: string;
  readonly aborted: boolean;
}

/** What the human knows of the hand from its frames, which is enough to choose a legal action. */
interface HandView {
  number: number;
  street: string;
  board: string[];
  pot: number;
  currentBet: number;
  minRaise: number;
  toAct: number | null;
  /** How many actions were seen in this hand. A turn is identified by the hand and this count. */
  moves: number;
}

interface SeatView {
  stack: number;
  committed: number;
}

type Frame = { type: string; id?: string | null; status?: number; error?: { code: string }; data?: any };

/**
 * One person at a card table, as the bench plays them. The bot opens a table over HTTP (with five
 * server bots by default) and connects with its token. Whenever it is its turn, it acts after a
 * human pause, with a simple sensible choice that the table's own state offers: strong cards bet
 * or raise the minimum, playable ones call what is cheap, and the rest check or fold. A human who
 * busts buys in again. Every `table.act` is timed from send to reply and recorded, and every frame
 * received is counted by kind. It never rejects: whatever went wrong is in the report.
 */
export async function playCardTable(o: CardTableBotOptions): Promise<CardTableReport> {
  const random = o.random ?? Math.random;
  const pause = o.pause ?? HUMAN_PAUSE;
  const commandTimeoutMs = o.commandTimeoutMs ?? 10_000;
  const wire = o.wire ?? 'json';
  let tags: RecordTags = { ...o.tags };
  let code: string | undefined;
  let token: string | undefined;
  let actions = 0;
  let hands = 0;
  let granted: string | undefined;
  let seat: SeatClient | undefined;
  let closeCode: number | undefined;
  let closingByUs = false;
  try {
    const created = await timedHttp<{ code: string; playerToken: string }>(o.baseUrl, 'POST', '/api/tables', {
      type: 'http POST /api/tables',
      body: { name: 'Bench human', ...o.table },
      timeoutMs: commandTimeoutMs,
      record: o.record,
      tags,
    });
    if (created.status !== 201 || !created.body)
      throw new Error(`could not open a table: HTTP ${created.status ?? '-'} ${created.error ?? ''}`);
    code = created.body.code;
    token = created.body.playerToken;
    tags = { ...o.tags, table: code };
    if (o.signal?.aborted) return { table: code, actions, hands, aborted: true };

    let mySeat: number | undefined;
    let hand: HandView | undefined;
    let seats: SeatView[] = [];
    let cards: string[] | undefined;
    let phase = 'between';
    let bigBlind = 2;
    let actedThisStreet = false;
    /** The turn (hand:moves) an action is already planned or sent for. */
    let plannedTurn: string | undefined;
    let seated = false;
    let onSeatedResolve!: () => void;
    const seatedPromise = new Promise<void>((r) => (onSeatedResolve = r));

    /** Sends a command, timed by the client from the moment its frame is written. Resolves with null when no reply came. */
    const send = async (type: string, data: Record<string, unknown>): Promise<Frame | null> => {
      const r = await seat!.command(type, data, undefined, typeof data.action === 'string' ? { action: data.action } : undefined);
      return r.reply ?? null;
    };

    const me = () => (mySeat === undefined ? undefined : seats[mySeat]);
    const turnKey = () => (hand ? `${hand.number}:${hand.moves}` : '');
    const myTurn = () => !!hand && mySeat !== undefined && hand.toAct === mySeat;

    /** The human's choice now, from what the table offers (computed as the table page computes it). */
    const choose = (): { action: string; amount?: number } => {
      const seat = me()!;
      const h = hand!;
      const toCall = Math.max(0, h.currentBet - seat.committed);
      const maxTotal = seat.committed + seat.stack;
      const canBet = h.currentBet === 0 && seat.stack > 0;
      // A seat that has acted on this street may have had the betting closed to it by a short all-in.
      const canRaise = h.currentBet > 0 && maxTotal > h.currentBet && !actedThisStreet;
      const minTotal = Math.min(h.minRaise, maxTotal);
      const strength = handStrength(cards ?? [], h.board);
      if (toCall === 0) {
        if (strength >= 2 && random() < 0.5) {
          if (canBet) return { action: 'bet', amount: minTotal };
          if (canRaise) return { action: 'raise', amount: minTotal };
        }
        return { action: 'check' };
      }
      if (strength >= 2) return canRaise && random() < 0.3 ? { action: 'raise', amount: minTotal } : { action: 'call' };
      // Pot odds: a playable hand calls up to half the pot, and any hand may call a single blind's worth.
      const cheap = toCall <= Math.max(bigBlind, h.pot / 2);
      if (strength === 1 && cheap) return { action: 'call' };
      if (toCall <= bigBlind && random() < 0.5) return { action: 'call' };
      return { action: 'fold' };
    };

    const planTurn = () => {
      if (!seated || !myTurn() || o.signal?.aborted) return;
      const key = turnKey();
      if (plannedTurn === key) return;
      plannedTurn = key;
      void (async () => {
        await sleep(pauseMs(pause, random), o.signal);
        // The clock may have run out meanwhile, or the bench may have stopped.
        if (o.signal?.aborted || turnKey() !== key || !myTurn()) return;
        const choice = choose();
        actions++;
        const reply = await send('table.act', choice);
        if (
          reply &&
          (reply.status === 400 || (reply.status === 409 && reply.error?.code === 'illegal_action')) &&
          turnKey() === key &&
          myTurn()
        ) {
          // Our view of the betting was off, so make the safe move that the rules always allow.
          const seat = me()!;
          actions++;
          await send('table.act', { action: hand!.currentBet - seat.committed > 0 ? 'fold' : 'check' });
        }
      })();
    };

    const rebuyIfBusted = () => {
      if (!seated || phase !== 'waiting' || o.signal?.aborted) return;
      phase = 'rebuying';
      void (async () => {
        await sleep(pauseMs(pause, random), o.signal);
        if (o.signal?.aborted) return;
        const r = await send('table.rebuy', {});
        if (r?.status !== 200) phase = 'waiting';
      })();
    };

    const onEvent = (type: string, d: any) => {
      switch (type) {
        case 'table.snapshot': {
          granted ??= d.wire;
          bigBlind = d.rules?.bigBlind ?? bigBlind;
          mySeat = d.you?.seat;
          phase = d.phase ?? phase;
          seats = (d.seats ?? []).map((s: any) => ({ stack: s.stack, committed: s.committed ?? 0 }));
          cards = d.yourCards ?? cards;
          const h = d.hand;
          hand = h
            ? {
                number: h.number,
                street: h.street,
                board: h.board ?? [],
                pot: h.pot,
                currentBet: h.currentBet,
                minRaise: h.minRaise,
                toAct: h.toAct,
                moves: (hand?.moves ?? 0) + 1,
              }
            : undefined;
          if (!seated) {
            seated = true;
            onSeatedResolve();
          }
          break;
        }
        case 'table.rules':
          bigBlind = d.bigBlind ?? bigBlind;
          break;
        case 'hand.started':
          phase = 'playing';
          seats = seats.map((s) => ({ ...s, committed: 0 }));
          for (const b of d.blinds ?? []) if (seats[b.seat]) seats[b.seat] = { stack: seats[b.seat].stack - b.amount, committed: b.amount };
          hand = {
            number: d.number,
            street: 'preflop',
            board: [],
            pot: d.pot,
            currentBet: d.currentBet,
            minRaise: d.minRaise,
            toAct: null,
            moves: 0,
          };
          cards = undefined;
          actedThisStreet = false;
          break;
        case 'hole_cards.dealt':
          if (d.cards && d.seat === mySeat) cards = d.cards;
          break;
        case 'action.applied':
          if (!hand) break;
          if (seats[d.seat]) seats[d.seat] = { stack: d.stack, committed: d.amount };
          if (d.seat === mySeat) actedThisStreet = true;
          // The minimum raise grows only by a full raise.
          hand.minRaise = d.currentBet + Math.max(hand.minRaise - hand.currentBet, d.currentBet - hand.currentBet);
          hand.currentBet = d.currentBet;
          hand.pot = d.pot;
          hand.toAct = d.toAct;
          hand.moves++;
          break;
        case 'street.dealt':
          if (!hand) break;
          seats = seats.map((s) => ({ ...s, committed: 0 }));
          hand.street = d.street;
          hand.board = d.board ?? hand.board;
          hand.pot = d.pot ?? hand.pot;
          hand.currentBet = 0;
          hand.minRaise = bigBlind;
          hand.toAct = null;
          hand.moves++;
          actedThisStreet = false;
          break;
        case 'time_bank':
          // A clock for the seat already to act (because its action.applied named it) belongs to the same turn.
          if (!hand || hand.toAct === d.seat) break;
          hand.toAct = d.seat;
          hand.moves++;
          break;
        case 'hand.finished':
          hands++;
          o.onHandFinished?.();
          for (const s of d.stacks ?? []) if (seats[s.seat]) seats[s.seat] = { stack: s.stack, committed: 0 };
          hand = undefined;
          phase = mySeat !== undefined && seats[mySeat]?.stack === 0 ? 'waiting' : 'between';
          break;
        case 'table.closed':
          phase = 'closed';
          hand = undefined;
          break;
      }
      planTurn();
      rebuyIfBusted();
    };

    // Use the client package's client on one socket. The bot counts every frame it reads.
    seat = await SeatClient.connect(o.socketUrl ?? o.baseUrl, token, {
      room: code,
      wire,
      commandTimeoutMs,
      timeoutMs: commandTimeoutMs,
      history: false,
      idPrefix: 't',
      record: o.record,
      tags,
      onEvent: (e) => onEvent(e.type, e.data ?? {}),
      onFrame: (f) => {
        if (f.direction === 'received') o.onFrame?.((f.frame as Frame).type, f.bytes);
        else o.onCommandSent?.((f.frame as Frame).type, f.at);
      },
    }).catch((err: unknown) => {
      throw new Error(
        err instanceof UpgradeRefused
          ? `the upgrade was refused with HTTP ${err.status}`
          : err instanceof Error
            ? err.message
            : String(err),
      );
    });
    const closed = seat.closed.then(({ code: c }) => {
      closeCode = c;
      if (!closingByUs) o.onClosed?.(c);
      return c;
    });
    await Promise.race([seatedPromise, closed]);
    if (seated) o.onSeated?.(granted);

    // Play until the bot is told to stop or the server closes the socket.
    const stopped = new Promise<void>((resolve) =>
      o.signal?.aborted ? resolve() : o.signal?.addEventListener('abort', () => resolve(), { once: true }),
    );
    const how = await Promise.race([stopped.then(() => 'stopped' as const), closed.then(() => 'closed' as const)]);
    const failure = seat.dropReason;
    if (how === 'closed')
      return {
        table: code,
        wire: granted,
        actions,
        hands,
        closeCode,
        aborted: !!o.signal?.aborted,
        error: failure ?? `the server closed the socket with ${closeCode}`,
      };
    return { table: code, wire: granted, actions, hands, aborted: true, ...(failure ? { error: failure } : {}) };
  } catch (err) {
    return {
      table: code,
      wire: granted,
      actions,
      hands,
      closeCode,
      aborted: !!o.signal?.aborted,
      error: err instanceof Error ? err.message : String(err),
    };
  } finally {
    closingByUs = true;
    seat?.close(1000);
    // Close the table so that it stops dealing. This is not timed, because cleanup is no part of the figures.
    if (code && token) {
      await timedHttp(o.baseUrl, 'DELETE', `/api/tables/${code}`, {
        type: 'cleanup',
        headers: { authorization: `Bearer ${token}` },
        timeoutMs: commandTimeoutMs,
      });
    }
  }
}

const RANKS = '23456789TJQKA';

/**
 * Rates a hand as 0 (weak), 1 (playable) or 2 (strong). Strong is a pair or better with the board,
 * or, before the flop, a pocket pair, two high cards, or an ace with a face card. This is enough
 * for a sensible human, not for a good one.
 */
export function handStrength(cards: readonly string[], board: readonly string[]): number {
  if (cards.length !== 2) return 0;
  const [a, b] = cards.map((c) => RANKS.indexOf(c[0]));
  const suited = cards[0][1] === cards[1][1];
  if (board.length === 0) {
    if (a === b || (a >= 8 && b >= 8)) return 2;
    if (Math.max(a, b) === 12 || (suited && Math.abs(a - b) <= 2) || (a >= 7 && b >= 7)) return 1;
    return 0;
  }
  const boardRanks = board.map((c) => RANKS.indexOf(c[0]));
  const paired = [a, b].filter((r) => boardRanks.includes(r)).length;
  // Two pair or trips (a pocket pair that hit), or a pair of jacks or better.
  if (paired === 2 || (a === b && boardRanks.includes(a))) return 2;
  if (a === b) return a >= 9 ? 2 : 1;
  if (paired === 1) return boardRanks.includes(Math.max(a, b)) && Math.max(a, b) >= 9 ? 2 : 1;
  return 0;
}
