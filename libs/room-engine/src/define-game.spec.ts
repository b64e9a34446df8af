import { z } from 'zod';
import { RoomException } from '@app/protocol';
import { defineGame, refuse, Step } from './define-game';

// A small game, written the way a game author writes one, with only the required members and a timer.
interface CountState {
  readonly code: string;
  readonly phase: 'open' | 'closed';
  readonly n: number;
  readonly seats: readonly { readonly id: string; readonly name: string; readonly connected: boolean }[];
}

const T0 = 1_700_000_000_000;
const ctx = { now: T0, random: () => 0.5, id: () => 'an-id' };
const PLAYER = { role: 'player' as const, seat: 'p1' };

const counter = defineGame({
  name: 'counter',
  settings: z.object({ name: z.string().min(1), step: z.int().min(1).default(1) }),
  setup: (settings, opened): CountState => ({
    code: opened.code,
    phase: 'open',
    n: 0,
    seats: [{ id: opened.opener, name: settings.name, connected: false }],
  }),
  commands: {
    'count.add': {
      schema: z.object({ by: z.int().min(1) }),
      roles: ['player'],
      decide: (state, { by }, c): Step<CountState> => {
        if (by > 10) refuse('too_many', 'at most 10 at once');
        return {
          state: { ...state, n: state.n + by },
          events: [{ type: 'count.added', data: { by, who: c.actor.seat } }],
          reply: { id: c.commandId },
        };
      },
    },
  },
  events: {
    'count.state': z.object({ n: z.int() }),
    'count.added': z.object({ by: z.int() }),
    'count.presence': z.object({ id: z.string(), connected: z.boolean() }),
  },
  view: (state) => ({ n: state.n }),
  describe: (state) => ({ code: state.code, n: state.n }),
});

const opened = () =>
  counter.opening!.state({ roomId: 'r1', code: 'ABC123', opener: 'p1' }, counter.opening!.settings({ name: 'Ann' }, 7), {
    at: T0,
    expirySeconds: 60,
  });

function refusal(f: () => unknown): { code: string; status: number } {
  try {
    f();
  } catch (err) {
    if (err instanceof RoomException) return { code: err.code, status: err.status };
    throw err;
  }
  throw new Error('expected a refusal');
}

describe(defineGame.name, () => {
  it('derives the vocabularies and the state frame from the maps', () => {
    expect(counter.kind).toBe('counter');
    expect(counter.rules.commandTypes).toEqual(['count.add']);
    expect(counter.rules.eventTypes).toEqual(['count.state', 'count.added', 'count.presence']);
    expect(counter.rules.stateEvent).toBe('count.state');
  });

  it('parses a command from the map: unknown type 404, then role 403, then data 400', () => {
    expect(refusal(() => counter.rules.parseCommand({ id: 'c', type: 'count.nope', data: 'x' }, 'spectator'))).toEqual({
      code: 'unknown_type',
      status: 404,
    });
    expect(refusal(() => counter.rules.parseCommand({ id: 'c', type: 'toString', data: {} }, 'player'))).toEqual({
      code: 'unknown_type',
      status: 404,
    });
    expect(refusal(() => counter.rules.parseCommand({ id: 'c', type: 'count.add', data: 'x' }, 'spectator'))).toEqual({
      code: 'forbidden',
      status: 403,
    });
    expect(refusal(() => counter.rules.parseCommand({ id: 'c', type: 'count.add', data: { by: 0 } }, 'player'))).toEqual({
      code: 'bad_data',
      status: 400,
    });
    expect(counter.rules.parseCommand({ id: 'c', type: 'count.add', data: { by: 2, extra: 1 } }, 'player')).toEqual({
      id: 'c',
      type: 'count.add',
      data: { by: 2 },
    });
  });

  it('reads the settings with their defaults, and refuses a bad field with 400 naming it', () => {
    expect(counter.opening!.settings({ name: 'Ann' }, 7)).toEqual({ name: 'Ann', step: 1 });
    const err = (() => {
      try {
        counter.opening!.settings({ name: 'Ann', step: 0 }, 7);
      } catch (e) {
        return e as RoomException;
      }
    })();
    expect(err).toBeInstanceOf(RoomException);
    expect(err!.status).toBe(400);
    expect(err!.message).toContain('step');
  });

  it("hands decide the data, the actor and the command's id; a game's refusal is 409", () => {
    const state = opened();
    const outcome = counter.rules.decide(state, PLAYER, { id: 'c-1', type: 'count.add', data: { by: 3 } }, ctx);
    expect(outcome.state.n).toBe(3);
    expect(outcome.events).toEqual([{ type: 'count.added', data: { by: 3, who: 'p1' } }]);
    expect(outcome.reply).toEqual({ id: 'c-1' });
    expect(refusal(() => counter.rules.decide(state, PLAYER, { id: 'c-2', type: 'count.add', data: { by: 11 } }, ctx))).toEqual({
      code: 'too_many',
      status: 409,
    });
  });

  it('handles presence, a resume and a close by default, on the seats of the state', () => {
    const state = opened();
    const came = counter.rules.onSignal(state, { kind: 'presence', seat: 'p1', connected: true }, ctx);
    expect(came.state.seats[0].connected).toBe(true);
    expect(came.events).toEqual([{ type: 'count.presence', data: { id: 'p1', connected: true } }]);
    expect(counter.rules.onSignal(came.state, { kind: 'presence', seat: 'p1', connected: true }, ctx).events).toEqual([]);
    expect(counter.rules.onSignal(came.state, { kind: 'resumed' }, ctx).state.seats[0].connected).toBe(false);
    const closed = counter.rules.onSignal(state, { kind: 'closed', reason: 'operator' }, ctx);
    expect(closed.state.phase).toBe('closed');
    expect(closed.effects).toEqual([{ kind: 'close', reason: 'operator' }]);
    expect(counter.rules.isOver(closed.state)).toBe(true);
    expect(counter.rules.onSignal(closed.state, { kind: 'closed', reason: 'again' }, ctx).effects).toEqual([]);
    expect(counter.rules.onSignal(state, { kind: 'deadline' }, ctx).state).toBe(state);
  });

  it('admits, closes and names by the seats, and summarizes the room for the console', () => {
    const state = opened();
    expect(counter.rules.admit(state, PLAYER)).toBeNull();
    expect(counter.rules.admit(state, { role: 'spectator' })).toBeNull();
    expect(counter.rules.admit(state, { role: 'player', seat: 'stranger' })).toMatchObject({ closeCode: 4003 });
    const closed = counter.rules.onSignal(state, { kind: 'closed', reason: 'x' }, ctx).state;
    expect(counter.rules.admit(closed, { role: 'spectator' })).toMatchObject({ closeCode: 4004 });
    expect(counter.mayClose(state, PLAYER)).toBe(true);
    expect(counter.mayClose(state, { role: 'player', seat: 'stranger' })).toBe(false);
    expect(counter.mayClose(state, { role: 'spectator' })).toBe(false);
    expect(counter.seatName!(state, 'p1')).toBe('Ann');
    expect(counter.rules.summarize(state)).toEqual({ code: 'ABC123', phase: 'open', seats: 1, seatsConnected: 0, round: null });
    expect(counter.publicSummary(state)).toEqual({ code: 'ABC123', n: 0 });
    expect(counter.operatorDetail(state)).toEqual({ code: 'ABC123', n: 0 });
    expect(counter.rules.batchKey({ id: 'c', type: 'count.add', data: { by: 1 } })).toBeNull();
    expect(counter.rules.mayPassivate(state)).toBe(true);
    expect(counter.joinProposal).toBeUndefined();
    expect(counter.opening!.openerRole).toBe('player');
  });

  it("reads a finished game's console line from the conventional fields of its report", () => {
    expect(counter.finishedRecord!({ players: ['Ann', { name: 'Bob' }], winner: 'Bob', hostName: 'Cy', startedAt: T0 })).toEqual({
      hostName: 'Cy',
      players: ['Ann', 'Bob'],
      winner: 'Bob',
      startedAt: T0,
    });
    // For a draw, a report without players, or a winner that is not a name, the record makes up no name.
    expect(counter.finishedRecord!({ winner: null })).toEqual({ hostName: null, players: [], winner: null });
    expect(counter.finishedRecord!({ players: [{ id: 'p1' }], winner: 3 })).toEqual({ hostName: null, players: [''], winner: null });
    expect(counter.finishedRecord!(null)).toEqual({ hostName: null, players: [], winner: null });
  });

  describe('a game whose clocks are fields of its state', () => {
    interface Race {
      readonly phase: 'running' | 'closed';
      readonly lapBy: number | null;
      readonly finishBy?: number;
      readonly laps: number;
    }
    const race = defineGame({
      name: 'race',
      settings: z.object({}),
      setup: (): Race => ({ phase: 'running', lapBy: T0 + 5_000, finishBy: T0 + 60_000, laps: 0 }),
      commands: {},
      events: { 'race.state': z.object({}) },
      clocks: ['lapBy', 'finishBy'],
      view: () => ({}),
      describe: () => ({}),
    });
    const running: Race = { phase: 'running', lapBy: T0 + 5_000, finishBy: T0 + 60_000, laps: 0 };

    it('is due at the earliest clock set, and at none once it is over or every clock is stopped', () => {
      expect(race.rules.nextDeadline(running)).toBe(T0 + 5_000);
      expect(race.rules.nextDeadline({ ...running, lapBy: null })).toBe(T0 + 60_000);
      expect(race.rules.nextDeadline({ phase: 'running', lapBy: null, laps: 1 })).toBeUndefined();
      expect(race.rules.nextDeadline({ ...running, phase: 'closed' })).toBeUndefined();
      // By default, a room with a deadline set stays in memory.
      expect(race.rules.mayPassivate(running)).toBe(false);
    });

    it('moves every clock that is set, and nothing else, when an outage held them', () => {
      expect(race.rules.shiftClocks!(running, 700)).toEqual({ phase: 'running', lapBy: T0 + 5_700, finishBy: T0 + 60_700, laps: 0 });
      const stopped: Race = { phase: 'running', lapBy: null, laps: 2 };
      expect(race.rules.shiftClocks!(stopped, 700)).toBe(stopped);
    });

    it('has no clock to move for a game that declares none', () => {
      expect(counter.rules.shiftClocks).toBeUndefined();
      expect(counter.rules.nextDeadline(opened())).toBeUndefined();
    });
  });

  it("gives the envelope's codes their own status and a game's own 409", () => {
    expect(counter.error('seat_gone', 'gone').status).toBe(409);
    expect(counter.error('bad_data', 'bad').status).toBe(400);
    expect(counter.error('too_many', 'no').status).toBe(409);
  });

  describe('a game that plays from a deck', () => {
    const item = z.object({ word: z.string() });
    const words = defineGame({
      name: 'words',
      settings: z.object({ deckId: z.string().optional() }),
      deck: { item, of: (settings) => settings.deckId },
      setup: (_settings, o) => ({ code: o.code, phase: 'open', words: (o.deck?.items ?? []) as readonly z.output<typeof item>[] }),
      commands: {},
      events: { 'words.state': z.object({}) },
      view: () => ({}),
      describe: (state) => ({ count: state.words.length }),
    });
    const open = (items: readonly unknown[]) =>
      words.opening!.state({ roomId: 'r', code: 'C', opener: 'p' }, {}, { at: T0, expirySeconds: 60, deck: { id: 'd', items } });

    it("names the deck a room copies, and checks the deck's items against the game's item schema", () => {
      expect(words.opening!.deckOf!({ deckId: 'd1' })).toBe('d1');
      expect(open([{ word: 'a' }, { word: 'b' }]).words).toHaveLength(2);
      expect(refusal(() => open([{ word: 'a' }, { nope: 1 }]))).toEqual({ code: 'bad_data', status: 400 });
    });
  });

  describe('a game that gives its wire', () => {
    const wire = {
      kind: 'dice',
      commands: { 'dice.roll': z.object({ times: z.int().min(1).max(3) }) },
      events: { 'dice.rolled': z.object({ sum: z.int() }), 'dice.board': z.object({}) },
      stateEvent: 'dice.board',
      codes: {
        kind: 'dice',
        stateEvent: 'dice.board',
        events: { 'dice.board': { code: 0 }, 'dice.rolled': { code: 1 } },
        keys: ['sum'],
        enums: {},
        ids: [],
      },
    };
    const dice = defineGame({
      wire,
      settings: z.object({}),
      setup: (_s, o) => ({ code: o.code, phase: 'open', sum: 0 }),
      commands: {
        'dice.roll': {
          roles: ['player'],
          decide: (state, { times }) => ({ state: { ...state, sum: state.sum + times }, events: [], effects: [] }),
        },
      },
      view: (state) => ({ sum: state.sum }),
      describe: (state) => ({ sum: state.sum }),
    });

    it('takes its name, its schemas, its state frame and its codes from the wire, said once there', () => {
      expect(dice.kind).toBe('dice');
      expect(dice.rules.kind).toBe('dice');
      expect(dice.rules.eventTypes).toEqual(['dice.rolled', 'dice.board']);
      expect(dice.rules.stateEvent).toBe('dice.board');
      expect(dice.codes).toBe(wire.codes);
      expect(refusal(() => dice.rules.parseCommand({ id: 'c', type: 'dice.roll', data: { times: 4 } }, 'player'))).toEqual({
        code: 'bad_data',
        status: 400,
      });
      expect(dice.rules.parseCommand({ id: 'c', type: 'dice.roll', data: { times: 2 } }, 'player').data).toEqual({ times: 2 });
    });

    it('refuses to make a game whose command has no schema, in its definition or its wire', () => {
      expect(() =>
        defineGame({
          name: 'broken',
          events: { 'broken.state': z.object({}) },
          settings: z.object({}),
          setup: () => ({ phase: 'open' }),
          commands: { 'broken.go': { roles: ['player'], decide: (state) => ({ state, events: [], effects: [] }) } },
          view: () => ({}),
          describe: () => ({}),
        }),
      ).toThrow(/'broken.go' has no schema/);
    });
  });
});
