// This file is checked by `tsc --noEmit -p tsconfig.json` at the root (npm test's type-check) and
// never run. Each @ts-expect-error line must fail to compile, or the check fails ("unused directive").
import { createClient, ReconnectingClient, type TokenStorage } from '@game-rooms/client';
import type { CardsEvents, TableClient } from '../cards/src/cards.wire';
import type { TicTacToeClient } from '../tictactoe/src/tictactoe.wire';
import { TRIVIA_WIRE, type TriviaClient, type TriviaEvents } from '../trivia/src/trivia.wire';

declare const trivia: TriviaClient;
declare const table: TableClient;
declare const ttt: TicTacToeClient;

export async function triviaCommands(): Promise<void> {
  await trivia.send('room.answer', { question: 1, choice: 2 });
  await trivia.send('room.start');
  await trivia.send('room.rematch', { vote: true });
  await trivia.send('room.kick', { playerId: 'p-1' });
  // @ts-expect-error choice is a number
  await trivia.send('room.answer', { question: 1, choice: 'x' });
  // @ts-expect-error question is required
  await trivia.send('room.answer', { choice: 2 });
  // @ts-expect-error no such field
  await trivia.send('room.answer', { question: 1, choice: 2, extra: true });
  // @ts-expect-error room.answer needs its data
  await trivia.send('room.answer');
  // @ts-expect-error no such command in trivia
  await trivia.send('table.act', { action: 'fold' });
  // @ts-expect-error vote is a boolean
  await trivia.send('room.rematch', { vote: 'yes' });
}

export async function tableCommands(): Promise<void> {
  await table.send('table.act', { action: 'raise', amount: 40 });
  await table.send('table.act', { action: 'fold' });
  await table.send('table.rebuy');
  // @ts-expect-error not an action
  await table.send('table.act', { action: 'shove' });
  // @ts-expect-error amount is a number of chips
  await table.send('table.act', { action: 'bet', amount: '10' });
  // @ts-expect-error a trivia command
  await table.send('room.answer', { question: 1, choice: 2 });
  await ttt.send('ttt.move', { cell: 4 });
  // @ts-expect-error cell is a number
  await ttt.send('ttt.move', { cell: 'centre' });
}

export function events(): void {
  trivia.on('question.open', (q) => {
    // Absent for a text question (section 13).
    const choices: string[] | undefined = q.choices;
    const closesAt: number = q.closesAt;
    // @ts-expect-error question.open carries no counts
    void q.counts;
    void choices;
    void closesAt;
  });
  trivia.on('game.finished', (g) => void g.standings.map((s) => s.rank + s.score));
  // @ts-expect-error not a trivia event
  trivia.on('hand.started', () => undefined);
  table.on('action.applied', (a) => {
    const action: 'fold' | 'check' | 'call' | 'bet' | 'raise' | 'all_in' = a.action;
    void action;
  });
  ttt.on('ttt.moved', (m) => {
    // @ts-expect-error a mark is X or O
    const mark: 'Z' = m.mark;
    void mark;
  });
}

declare const localStore: TokenStorage;

export async function typedByItsWire(): Promise<void> {
  // A client created from a game's wire takes that game's types, as the named client types do.
  const client = createClient(TRIVIA_WIRE, { url: (t) => t, storage: localStore, storageKey: 'seat' });
  const same: TriviaClient = client;
  await client.send('room.answer', { question: 1, choice: 2 });
  // @ts-expect-error no such command in trivia
  await client.send('ttt.move', { cell: 1 });
  void same;
}

export function untypedStillWorks(client: ReconnectingClient): void {
  // A client with no game's types takes any command, as before.
  void client.send('anything', { at: 1 });
  void client.send('ping');
}

// The event maps are the schemas' output, field for field.
export const sample: TriviaEvents['question.closed'] = {
  index: 0,
  correct: 1,
  counts: [0, 1],
  scores: [{ playerId: 'p', points: 10, total: 10 }],
};
export const seat: CardsEvents['hole_cards.dealt'] = { seat: 1, cards: null };
