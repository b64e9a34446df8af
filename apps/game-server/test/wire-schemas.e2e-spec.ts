import { GameEvent } from '@app/bot-kit';
import { CARDS_EVENTS } from '@app/games/cards';
import { RunningServer } from '../src/server';
import { withTestServer } from '../../../test/support/test-server';
import { recordTable, TableRecording } from '../../wire/src/table-recording';

// The client package's event schemas are what the pages and every client are typed by: they
// must describe what a real table sends. (Trivia's are checked the same way by the packed
// client in client-package.e2e-spec.ts.)

describe('the card table’s event schemas, against a real table', () => {
  let server: RunningServer;
  let table: TableRecording;

  withTestServer((s) => (server = s));

  beforeAll(async () => {
    table = await recordTable(server.url, { hands: 6, seed: 7, bots: 5 });
  }, 60_000);

  it.each(['human', 'spectator'] as const)('describe every event the %s gets', (who) => {
    const events = table[who].json.decoded.filter((f): f is GameEvent => f.type !== 'reply');
    const wrong = events.flatMap((e): { type: string; seq?: number; issues: unknown }[] => {
      const schema = (CARDS_EVENTS as Record<string, (typeof CARDS_EVENTS)[keyof typeof CARDS_EVENTS]>)[e.type];
      if (!schema) return [{ type: e.type, issues: 'no schema for this event type' }];
      const checked = schema.safeParse(e.data);
      return checked.success ? [] : [{ type: e.type, seq: e.seq, issues: checked.error.issues }];
    });
    expect(wrong).toEqual([]);
    // Every kind of event was there to be checked.
    const seen = new Set(events.map((e) => e.type));
    for (const type of [
      'table.snapshot',
      'hand.started',
      'hole_cards.dealt',
      'action.applied',
      'street.dealt',
      'hand.finished',
      'standings',
      'table.closed',
    ])
      expect([type, seen.has(type)]).toEqual([type, true]);
  });
});
