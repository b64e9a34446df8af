import { CommandRecord, playCardTable } from '@app/bot-kit';
import { RunningServer } from '../../game-server/src/server';
import { startTestServer } from '../../../test/support/test-server';

const FAST_TABLE = { botThinkMs: [5, 20] as [number, number], handPauseMs: 20, actionSeconds: 5, seed: 7 };

describe('playCardTable against a real server', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  for (const wire of ['json', 'compact-v1', 'compact-v2'] as const) {
    it(`plays hands with ${wire}: every action legal and answered, every frame counted by its decoded kind`, async () => {
      const records: CommandRecord[] = [];
      const kinds = new Map<string, number>();
      const stop = new AbortController();
      let hands = 0;
      const report = await playCardTable({
        baseUrl: server.url,
        wire,
        table: FAST_TABLE,
        pause: { baseMs: 5, spreadMs: 20 },
        record: (r) => records.push(r),
        signal: stop.signal,
        onFrame: (kind, bytes) => kinds.set(kind, (kinds.get(kind) ?? 0) + bytes),
        onHandFinished: () => ++hands >= 4 && stop.abort(),
      });
      expect(report.error).toBeUndefined();
      expect(report.wire).toBe(wire);
      expect(report.hands).toBeGreaterThanOrEqual(4);
      const acts = records.filter((r) => r.type === 'table.act');
      expect(acts.length).toBeGreaterThan(0);
      // A timed-out clock can overtake a pause only on a machine slower than a 5 s clock.
      for (const a of acts) expect(a.status === 200 || a.error === 'not_your_turn').toBe(true);
      expect(acts.filter((a) => a.status === 200).length).toBeGreaterThan(0);
      expect(records.filter((r) => r.type === 'http POST /api/tables').map((r) => r.status)).toEqual([201]);
      expect(records.filter((r) => r.type === 'ws.connect').map((r) => r.status)).toEqual([101]);
      for (const kind of ['table.snapshot', 'hand.started', 'hole_cards.dealt', 'action.applied', 'hand.finished', 'reply'])
        expect(kinds.get(kind)).toBeGreaterThan(0);
      expect(kinds.has('undecodable')).toBe(false);
      // The records hold decoded names, never compact-v2's numeric codes.
      for (const kind of kinds.keys()) expect(kind).toMatch(/^[a-z_]+(\.[a-z_]+)?$/);
    });
  }
});
