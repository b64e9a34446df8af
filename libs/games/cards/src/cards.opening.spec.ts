import { RoomException } from '@app/protocol';
import { cards } from './cards.module';
import { HUMAN_SEAT } from './cards.rules';

describe('cards.opening', () => {
  const opening = cards.opening!;

  it("reads the body's settings with their defaults, the seed the server drew included", () => {
    const settings = opening.settings({ name: 'Ada', bots: 2 }, 77);
    expect(settings).toMatchObject({ name: 'Ada', bots: 2, seed: 77, smallBlind: 1, bigBlind: 2, buyIn: 200 });
    // The document's defaults are the ones the settings take.
    const properties = opening.schema.properties as Record<string, { default?: unknown }>;
    for (const [field, value] of Object.entries(opening.settings({ name: 'Ada' }, 1))) {
      if (properties[field]?.default !== undefined) expect([field, value]).toEqual([field, properties[field].default]);
    }
  });

  it('refuses a bad body with 400, naming the field', () => {
    expect(() => opening.settings({ name: '' }, 1)).toThrow(RoomException);
    expect(() => opening.settings({ name: 'Ada', bots: 9 }, 1)).toThrow(/bots/);
  });

  it("seats the opener as the table's human, before the first hand", () => {
    expect(opening.openerRole).toBe('player');
    const state = opening.state({ roomId: 'table-1', code: 'CARDS1', opener: 'seat-9' }, opening.settings({ name: 'Ada', bots: 3 }, 5), 1000);
    expect(state).toMatchObject({ tableId: 'table-1', code: 'CARDS1', playerId: 'seat-9', phase: 'between', handsPlayed: 0, nextHandAt: 1000 + 2000 });
    expect(state.seats).toHaveLength(4);
    expect(state.seats[HUMAN_SEAT]).toMatchObject({ name: 'Ada', human: true, stack: 200 });
    expect(cards.mayClose(state, { role: 'player', seat: 'seat-9' })).toBe(true);
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  });
});
