import { CommandFrame, Role } from '@app/protocol';
import { cardsRules } from './cards.game';
import { tableSettings } from './cards.settings';

const status = (fn: () => unknown) => {
  try {
    fn();
  } catch (err: any) {
    return { code: err.code, status: err.status, message: err.message };
  }
  throw new Error('expected a refusal');
};

// defineGame derives the envelope's parsing from the table's map of commands.
const parseCardsCommand = (frame: CommandFrame, role: Role) => cardsRules.parseCommand(frame, role);

describe('parseCommand', () => {
  it('checks the type (404), then the role (403), then the data (400)', () => {
    expect(status(() => parseCardsCommand({ id: 'a', type: 'table.nope', data: 5 }, 'spectator'))).toMatchObject({
      status: 404,
      code: 'unknown_type',
    });
    expect(status(() => parseCardsCommand({ id: 'a', type: 'table.act', data: 5 }, 'spectator'))).toMatchObject({
      status: 403,
      code: 'forbidden',
    });
    expect(status(() => parseCardsCommand({ id: 'a', type: 'table.act', data: 5 }, 'player'))).toMatchObject({
      status: 400,
      code: 'bad_data',
    });
    expect(status(() => parseCardsCommand({ id: 'a', type: 'table.act', data: { action: 'shove' } }, 'player'))).toMatchObject({
      status: 400,
      message: expect.stringContaining('data.action'),
    });
    expect(status(() => parseCardsCommand({ id: 'a', type: 'table.act', data: { action: 'bet', amount: 2.5 } }, 'player'))).toMatchObject({
      status: 400,
      message: expect.stringContaining('data.amount'),
    });
    expect(status(() => parseCardsCommand({ id: 'a', type: 'table.act', data: { action: 'bet', amount: '10' } }, 'player'))).toMatchObject({
      status: 400,
    });
  });

  it('takes the three commands of a player', () => {
    expect(parseCardsCommand({ id: 'a', type: 'table.act', data: { action: 'raise', amount: 12 } }, 'player')).toEqual({
      id: 'a',
      type: 'table.act',
      data: { action: 'raise', amount: 12 },
    });
    expect(parseCardsCommand({ id: 'b', type: 'table.act', data: { action: 'fold' } }, 'player')).toEqual({
      id: 'b',
      type: 'table.act',
      data: { action: 'fold' },
    });
    expect(parseCardsCommand({ id: 'c', type: 'table.rebuy', data: {} }, 'player').type).toBe('table.rebuy');
    expect(parseCardsCommand({ id: 'd', type: 'table.leave', data: {} }, 'player').type).toBe('table.leave');
  });

  it('takes a null amount as none: the rules, and the journal, see no amount field at all', () => {
    const parsed = parseCardsCommand({ id: 'e', type: 'table.act', data: { action: 'check', amount: null } }, 'player');
    expect(parsed).toEqual({ id: 'e', type: 'table.act', data: { action: 'check' } });
    expect('amount' in parsed.data).toBe(false);
  });
});

describe(tableSettings.name, () => {
  it('fills in the defaults of PROTOCOL.md section 8', () => {
    expect(tableSettings({ name: 'Ada' }, 99)).toEqual({
      name: 'Ada',
      bots: 5,
      smallBlind: 1,
      bigBlind: 2,
      buyIn: 200,
      actionSeconds: 15,
      botThinkMs: [400, 1500],
      handPauseMs: 2000,
      seed: 99,
      idleCloseMs: 300_000,
    });
  });

  it('takes test settings: a fractional clock down to 0.2 s and a seed', () => {
    expect(tableSettings({ name: 'Ada', bots: 1, actionSeconds: 0.2, botThinkMs: [0, 5], handPauseMs: 0, seed: 7 }, 99)).toMatchObject({
      bots: 1,
      actionSeconds: 0.2,
      botThinkMs: [0, 5],
      handPauseMs: 0,
      seed: 7,
    });
  });

  it.each([
    [{}, 'name'],
    [{ name: '' }, 'name'],
    [{ name: 'x'.repeat(33) }, 'name'],
    [{ name: 'a\u0007b' }, 'name'],
    [{ name: 'Ada', bots: 0 }, 'bots'],
    [{ name: 'Ada', bots: 9 }, 'bots'],
    [{ name: 'Ada', smallBlind: 0 }, 'smallBlind'],
    [{ name: 'Ada', smallBlind: 5, bigBlind: 4 }, 'bigBlind'],
    [{ name: 'Ada', bigBlind: 300, buyIn: 200 }, 'buyIn'],
    [{ name: 'Ada', actionSeconds: 0.1 }, 'actionSeconds'],
    [{ name: 'Ada', botThinkMs: [500, 100] }, 'botThinkMs'],
    [{ name: 'Ada', botThinkMs: [1] }, 'botThinkMs'],
    [{ name: 'Ada', handPauseMs: -1 }, 'handPauseMs'],
    [{ name: 'Ada', seed: 1.5 }, 'seed'],
  ])('refuses %j with 400 naming %s', (body, field) => {
    expect(status(() => tableSettings(body, 1))).toMatchObject({ status: 400, message: expect.stringContaining(field) });
  });
});
