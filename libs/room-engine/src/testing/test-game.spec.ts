import { z } from 'zod';
import { jsonObject, printableField } from '@app/protocol';
import { defineGame, GameDefinition } from '../define-game';
import { GameTestFailure, ScriptStep, testGame } from './test-game';

// These tests run testGame() on a tiny game with a secret per seat: first a sound version, then
// versions broken in each way that testGame() checks.

interface Seat {
  readonly id: string;
  readonly name: string;
  readonly connected: boolean;
  readonly token: string;
}
interface DrawState {
  readonly code: string;
  readonly phase: 'open' | 'closed';
  readonly seats: readonly Seat[];
  readonly draws: number;
}

const sound = {
  name: 'draw',
  events: {
    'draw.state': z.object({}).loose(),
    'draw.drawn': z.object({ draws: z.number() }),
    'draw.token': z.object({ token: z.string() }),
  },
  settings: jsonObject({ name: printableField(32) }),
  setup: (settings: { name: string }, opened: { code: string; opener: string }): DrawState => ({
    code: opened.code,
    phase: 'open',
    seats: [{ id: opened.opener, name: settings.name, connected: false, token: '' }],
    draws: 0,
  }),
  proposals: {
    join: (state: DrawState, args: unknown) => {
      const { playerId, name } = args as { playerId: string; name: string };
      return {
        state: { ...state, seats: [...state.seats, { id: playerId, name, connected: false, token: '' }] },
        events: [],
        effects: [],
        reply: { playerId },
      };
    },
  },
  commands: {
    // A seat draws a secret token. Only that seat is told which token; everyone is told that a token was drawn.
    'draw.draw': {
      schema: z.object({}),
      roles: ['player'] as const,
      decide: (state: DrawState, _data: object, ctx: { actor: { seat?: string }; random: () => number }) => {
        const token = `token-${Math.floor(ctx.random() * 1e9)}`;
        const seats = state.seats.map((s) => (s.id === ctx.actor.seat ? { ...s, token } : s));
        return {
          state: { ...state, seats, draws: state.draws + 1 },
          events: [
            { type: 'draw.drawn', data: { draws: state.draws + 1 } },
            { type: 'draw.token', data: { token }, audience: { to: 'seats' as const, seats: [ctx.actor.seat!] } },
          ],
          effects: [],
          boundary: state.draws % 2 === 1,
        };
      },
    },
  },
  view: (state: DrawState, viewer: { seat?: string }) => ({
    draws: state.draws,
    yours: state.seats.find((s) => s.id === viewer.seat)?.token ?? null,
  }),
  describe: (state: DrawState) => ({ code: state.code, draws: state.draws }),
} satisfies GameDefinition<DrawState, { 'draw.draw': object }>;

const script = {
  settings: { name: 'Ann' },
  secretOf: (state: DrawState, seat: string) => [state.seats.find((s) => s.id === seat)?.token ?? ''].filter(Boolean),
  steps: [
    { at: 0, propose: 'join', args: { playerId: 'p2', name: 'Bo' } },
    { at: 10, seat: 'p1', command: 'draw.draw' },
    { at: 20, seat: 'p2', command: 'draw.draw' },
    { at: 30, seat: 'p1', command: 'draw.draw' },
    { at: 40, seat: 'p2', command: 'nothing.such' },
  ] satisfies ScriptStep[],
};

const failure = async (run: Promise<unknown>): Promise<string> => {
  const err = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GameTestFailure);
  return (err as Error).message;
};

describe('testGame', () => {
  it('passes a sound game and reports what it measured', async () => {
    const report = await testGame(defineGame(sound), script);
    expect(report).toMatchObject({
      game: 'draw',
      accepted: 4,
      refused: { unknown_type: 1 },
      statementsPerCommand: { 'draw.draw': 1 },
      snapshots: 1,
    });
    // Each accepted command and the join cost one statement; the seats' presence changes ride with them.
    expect(report.statements).toBe(4);
    expect(report.framesChecked).toBeGreaterThan(0);
    expect(report.text).toContain('draw: 5 steps, 4 accepted, 1 refused (unknown_type 1)');
  });

  it('fails a game whose view shows a seat another seat’s token', async () => {
    const leaky = defineGame({ ...sound, view: (state: DrawState) => ({ draws: state.draws, tokens: state.seats.map((s) => s.token) }) });
    expect(await failure(testGame(leaky, script))).toMatch(
      /draw, step 3 .*: draw.state sent to (seat p2|a spectator) holds "token-\d+", a secret of seat p1/,
    );
  });

  it('fails a game that tells everyone a seat’s token in an event', async () => {
    const draw = sound.commands['draw.draw'];
    const loud = defineGame({
      ...sound,
      commands: {
        'draw.draw': {
          ...draw,
          decide: (state, data, ctx) => {
            const o = draw.decide(state, data, ctx);
            return { ...o, events: o.events.map((e) => ({ ...e, audience: undefined })) };
          },
        },
      },
    });
    expect(await failure(testGame(loud, script))).toMatch(
      /draw, step 2 .*: draw.token sent to (seat p2|a spectator) holds "token-\d+", a secret of seat p1/,
    );
  });

  it('fails a game whose public summary holds a secret', async () => {
    const leaky = defineGame({ ...sound, describe: (state: DrawState) => ({ code: state.code, tokens: state.seats.map((s) => s.token) }) });
    expect(await failure(testGame(leaky, script))).toMatch(/step 2 .*: the public summary holds "token-\d+", a secret of seat p1/);
  });

  it('fails a game whose decision reads something the journal does not keep', async () => {
    let calls = 0;
    const forgetful = defineGame({
      ...sound,
      commands: {
        'draw.draw': {
          ...sound.commands['draw.draw'],
          decide: (state, data, ctx) => ({
            ...sound.commands['draw.draw'].decide(state, data, ctx),
            state: { ...state, draws: state.draws + 1 + (calls++ % 2) },
          }),
        },
      },
    });
    expect(await failure(testGame(forgetful, script))).toMatch(/step 2 .*: the journal replayed from the opening rebuilds another room/);
  });

  it('fails a game whose snapshot does not bring the room back', async () => {
    const lossy = defineGame({ ...sound, snapshotOf: (state: DrawState) => ({ ...state, draws: 0 }) });
    expect(await failure(testGame(lossy, script))).toMatch(/step 3 .*: the latest snapshot and the journal after it rebuild another room/);
  });

  it('fails a command that costs more statements than allowed', async () => {
    expect(await failure(testGame(defineGame(sound), { ...script, statementsPerCommand: 0 }))).toMatch(
      /step 2 .*: draw.draw cost 1 statements, more than 0/,
    );
  });
});
