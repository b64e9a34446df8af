import { WIRE_CODES } from '@app/wire-codes';
import { GameRegistry, labelVocabulary, serverCodes } from '@app/server';
import { DEFAULT_GAME, DEPLOYED_GAMES, GAMES, KICK_COMMANDS, ROOM_ALIASES } from './games';

describe('the game registry', () => {
  const registry = new GameRegistry(DEPLOYED_GAMES);

  it('names each game once, and finds each by its kind', () => {
    const kinds = GAMES.map((g) => g.kind);
    expect(new Set(kinds).size).toBe(kinds.length);
    for (const g of GAMES) expect(registry.gameOf(g.kind)).toBe(g);
    expect(() => registry.gameOf('no-such-game')).toThrow(/no game of kind/);
  });

  it('speaks the code table the clients decode with: their sections first, at the same positions and version', () => {
    const server = serverCodes(GAMES);
    expect(server.version).toBe(WIRE_CODES.version);
    expect(server.games.slice(0, WIRE_CODES.games.length)).toEqual(WIRE_CODES.games);
    // Each section belongs to its own game, which the section announces by the game's state frame.
    for (const g of GAMES) expect(server.games.find((s) => s.kind === g.kind)?.stateEvent).toBe(g.rules.stateEvent);
  });

  it('counts every game’s command and event types, and the events every room sends, and only those, as label values', () => {
    const vocabulary = labelVocabulary(GAMES);
    for (const g of GAMES) for (const t of g.rules.commandTypes) expect(vocabulary.commands.has(t)).toBe(true);
    expect(vocabulary.commands.has('ping')).toBe(true);
    // Every room sends these two events, whatever its game, when its clocks are held and when they resume.
    expect(vocabulary.events.has('room.paused')).toBe(true);
    expect(vocabulary.events.has('room.resumed')).toBe(true);
    expect(vocabulary.events.has('not-an-event')).toBe(false);
  });

  it('names only registered games in its default, its aliases and its kicks, and each kick is a command its game takes', () => {
    for (const routes of [DEFAULT_GAME, ...Object.values(ROOM_ALIASES)]) expect(registry.gameOf(routes.game.kind)).toBe(routes.game);
    expect(Object.keys(KICK_COMMANDS).length).toBeGreaterThan(0);
    for (const [kind, type] of Object.entries(KICK_COMMANDS)) expect(registry.gameOf(kind).rules.commandTypes).toContain(type);
  });

  it('refuses no games, a game given twice, routes of a game it does not play, and a kick its game does not take', () => {
    const [trivia, cards] = GAMES;
    expect(() => new GameRegistry({ games: [] })).toThrow(/at least one game/);
    expect(() => new GameRegistry({ games: [trivia, trivia] })).toThrow(`the game '${trivia.kind}' is registered twice`);
    expect(() => new GameRegistry({ games: [cards], defaultGame: DEFAULT_GAME })).toThrow(/no game of kind/);
    expect(() => new GameRegistry({ games: [trivia], kickCommands: { [trivia.kind]: 'no.such.command' } })).toThrow(
      /a command that game does not take/,
    );
    // When no default is given, a route without `game` means the first game.
    expect(new GameRegistry({ games: [cards, trivia] }).defaultKind).toBe(cards.kind);
  });
});
