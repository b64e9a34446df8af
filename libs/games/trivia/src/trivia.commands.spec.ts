import { CommandFrame, parseFrame, Role, RoomErrorCode, RoomException } from '@app/protocol';
import { triviaRules } from './trivia.game';

// defineGame derives the envelope's parsing from trivia's map of commands.
const validateCommand = (f: CommandFrame, role: Role) => triviaRules.parseCommand(f, role);

function parsed(text: string): CommandFrame {
  const result = parseFrame(text);
  if (!result.ok) throw new Error(`expected ${text} to parse, got ${result.error.code}`);
  return result.frame;
}

function frame(type: string, data: unknown = {}, id = 'c-1'): CommandFrame {
  return { id, type, data };
}

/** Runs the parsing, which must refuse, and returns the refusal. */
function refusal(f: CommandFrame, role: Role): RoomException {
  try {
    validateCommand(f, role);
  } catch (err) {
    if (err instanceof RoomException) return err;
    throw err;
  }
  throw new Error(`expected ${f.type} from a ${role} to be refused`);
}

describe('parseCommand', () => {
  describe('unknown type', () => {
    it.each<Role>(['host', 'player', 'spectator'])('refuses an unknown type with 404 unknown_type for a %s', (role) => {
      const err = refusal(frame('room.dance'), role);
      expect(err.code).toBe(RoomErrorCode.UnknownType);
      expect(err.status).toBe(404);
    });

    it('gives 404 before 400 for an unknown type with odd data', () => {
      expect(refusal(frame('room.dance', { question: 'x' }), 'spectator').status).toBe(404);
    });
  });

  describe('role', () => {
    it.each<[string, Role, Record<string, unknown>]>([
      ['room.start', 'player', {}],
      ['room.start', 'spectator', {}],
      ['room.answer', 'spectator', { question: 0, choice: 0 }],
      ['room.answer', 'host', { question: 0, choice: 0 }],
      ['room.rematch', 'host', { vote: true }],
      ['room.rematch', 'spectator', { vote: true }],
      ['room.leave', 'host', {}],
      ['room.leave', 'spectator', {}],
      ['room.kick', 'player', { playerId: 'p1' }],
      ['room.kick', 'spectator', { playerId: 'p1' }],
    ])('refuses %s from a %s with 403 forbidden', (type, role, data) => {
      const err = refusal(frame(type, data), role);
      expect(err.code).toBe(RoomErrorCode.Forbidden);
      expect(err.status).toBe(403);
    });

    it('gives 403 before 400 (a spectator answering with malformed data)', () => {
      const err = refusal(frame('room.answer', { question: 'one' }), 'spectator');
      expect(err.status).toBe(403);
    });

    it.each<Role>(['host', 'player', 'spectator'])('gives 404, then 403, then 400 for data that is not an object (a %s)', (role) => {
      expect(refusal(frame('room.dance', 'x'), role).status).toBe(404);
      expect(refusal(frame('room.kick', [1]), role === 'host' ? 'player' : role).status).toBe(403);
      expect(refusal(frame('room.answer', null), 'player')).toMatchObject({ status: 400, code: RoomErrorCode.BadData });
    });
  });

  describe('data', () => {
    it('returns the validated answer', () => {
      expect(validateCommand(frame('room.answer', { question: 3, choice: 2 }, 'c-17'), 'player')).toEqual({
        id: 'c-17',
        type: 'room.answer',
        data: { question: 3, choice: 2 },
      });
    });

    it('accepts question 0 and choice 0', () => {
      expect(validateCommand(frame('room.answer', { question: 0, choice: 0 }), 'player').data).toEqual({ question: 0, choice: 0 });
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['question -1', { question: -1, choice: 0 }, 'question'],
      ['question 1.5', { question: 1.5, choice: 0 }, 'question'],
      ['question "2"', { question: '2', choice: 0 }, 'question'],
      ['a missing question', { choice: 0 }, 'question'],
      ['question null', { question: null, choice: 0 }, 'question'],
      ['choice -1', { question: 0, choice: -1 }, 'choice'],
      ['choice 0.5', { question: 0, choice: 0.5 }, 'choice'],
      ['choice "1"', { question: 0, choice: '1' }, 'choice'],
      ['a missing choice', { question: 0 }, 'choice'],
    ])('refuses an answer with %s with 400 bad_data naming the field', (_what, data, field) => {
      const err = refusal(frame('room.answer', data), 'player');
      expect(err.code).toBe(RoomErrorCode.BadData);
      expect(err.status).toBe(400);
      expect(err.message).toContain(field);
    });

    it('does not check the choice against the question (the rules do, after the 409s)', () => {
      expect(validateCommand(frame('room.answer', { question: 0, choice: 99 }), 'player').data).toEqual({ question: 0, choice: 99 });
    });

    it('drops fields it does not know', () => {
      expect(validateCommand(frame('room.answer', { question: 1, choice: 1, extra: 'x' }), 'player').data).toEqual({
        question: 1,
        choice: 1,
      });
      expect(validateCommand(frame('room.start', { force: true }), 'host').data).toEqual({});
    });

    it('returns the validated vote, yes or no', () => {
      expect(validateCommand(frame('room.rematch', { vote: true }), 'player').data).toEqual({ vote: true });
      expect(validateCommand(frame('room.rematch', { vote: false }), 'player').data).toEqual({ vote: false });
    });

    it.each<[string, Record<string, unknown>]>([
      ['vote "yes"', { vote: 'yes' }],
      ['vote 1', { vote: 1 }],
      ['a missing vote', {}],
    ])('refuses a rematch with %s with 400 bad_data naming vote', (_what, data) => {
      const err = refusal(frame('room.rematch', data), 'player');
      expect(err.code).toBe(RoomErrorCode.BadData);
      expect(err.status).toBe(400);
      expect(err.message).toContain('vote');
    });

    it('returns the validated kick', () => {
      expect(validateCommand(frame('room.kick', { playerId: 'p-42' }), 'host')).toEqual({
        id: 'c-1',
        type: 'room.kick',
        data: { playerId: 'p-42' },
      });
    });

    it.each<[string, Record<string, unknown>]>([
      ['playerId 5', { playerId: 5 }],
      ['an empty playerId', { playerId: '' }],
      ['a missing playerId', {}],
      ['a 65-character playerId', { playerId: 'p'.repeat(65) }],
    ])('refuses a kick with %s with 400 bad_data naming playerId', (_what, data) => {
      const err = refusal(frame('room.kick', data), 'host');
      expect(err.code).toBe(RoomErrorCode.BadData);
      expect(err.status).toBe(400);
      expect(err.message).toContain('playerId');
    });

    it('accepts start and leave with empty data', () => {
      expect(validateCommand(frame('room.start'), 'host')).toEqual({ id: 'c-1', type: 'room.start', data: {} });
      expect(validateCommand(frame('room.leave'), 'player')).toEqual({ id: 'c-1', type: 'room.leave', data: {} });
    });
  });

  it('works on what parseFrame gives back', () => {
    const command = validateCommand(parsed('{"id":"c-5","type":"room.answer","data":{"question":1,"choice":0}}'), 'player');
    expect(command).toEqual({ id: 'c-5', type: 'room.answer', data: { question: 1, choice: 0 } });
  });
});
