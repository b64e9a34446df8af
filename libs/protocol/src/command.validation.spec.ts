import { CommandFrame, parseFrame, Role, RoomErrorCode, RoomException, validateCommand } from '@app/protocol';

function parsed(text: string): CommandFrame {
  const result = parseFrame(text);
  if (!result.ok) throw new Error(`expected ${text} to parse, got ${result.error.code}`);
  return result.frame;
}

function failed(text: string): { id: string | null; code: RoomErrorCode; status: number } {
  const result = parseFrame(text);
  if (result.ok) throw new Error(`expected ${text} to fail`);
  return { id: result.id, code: result.error.code, status: result.error.status };
}

function frame(type: string, data: Record<string, unknown> = {}, id = 'c-1'): CommandFrame {
  return { id, type, data };
}

/** Runs validateCommand, which must refuse, and returns the refusal. */
function refusal(f: CommandFrame, role: Role): RoomException {
  try {
    validateCommand(f, role);
  } catch (err) {
    if (err instanceof RoomException) return err;
    throw err;
  }
  throw new Error(`expected ${f.type} from a ${role} to be refused`);
}

describe(parseFrame.name, () => {
  it('reads a well-formed command', () => {
    expect(parseFrame('{"id":"c-17","type":"room.answer","data":{"question":3,"choice":2}}')).toEqual({
      ok: true,
      frame: { id: 'c-17', type: 'room.answer', data: { question: 3, choice: 2 } },
    });
  });

  it.each([
    ['invalid JSON', '{"id":"c-1",'],
    ['an empty frame', ''],
    ['a JSON string', '"hello"'],
    ['a JSON number', '42'],
    ['JSON null', 'null'],
    ['a JSON array', '[{"id":"c-1","type":"ping"}]'],
  ])('answers %s with id null and 400', (_what, text) => {
    const result = failed(text);
    expect(result.id).toBeNull();
    expect(result.status).toBe(400);
    expect(result.code).toBe(RoomErrorCode.BadFrame);
  });

  it.each([
    ['a missing id', '{"type":"ping","data":{}}'],
    ['an empty id', '{"id":"","type":"ping","data":{}}'],
    ['a numeric id', '{"id":17,"type":"ping","data":{}}'],
    ['a null id', '{"id":null,"type":"ping","data":{}}'],
    ['an object id', '{"id":{"a":1},"type":"ping","data":{}}'],
    ['a 65-character id', JSON.stringify({ id: 'x'.repeat(65), type: 'ping', data: {} })],
  ])('answers %s with id null and 400', (_what, text) => {
    const result = failed(text);
    expect(result).toEqual({ id: null, code: RoomErrorCode.BadId, status: 400 });
  });

  it('accepts ids of 1 and of 64 characters', () => {
    expect(parsed('{"id":"a","type":"ping"}').id).toBe('a');
    const long = 'y'.repeat(64);
    expect(parsed(JSON.stringify({ id: long, type: 'ping' })).id).toBe(long);
  });

  it('keeps the id when the type is missing', () => {
    expect(failed('{"id":"c-9","data":{}}')).toEqual({ id: 'c-9', code: RoomErrorCode.BadFrame, status: 400 });
  });

  it('keeps the id when the type is empty or not a string', () => {
    expect(failed('{"id":"c-9","type":""}')).toMatchObject({ id: 'c-9', status: 400 });
    expect(failed('{"id":"c-9","type":5}')).toMatchObject({ id: 'c-9', status: 400 });
  });

  it('treats absent data as {}', () => {
    expect(parsed('{"id":"c-1","type":"room.start"}')).toEqual({ id: 'c-1', type: 'room.start', data: {} });
  });

  it('refuses data that is an array with 400 bad_data, keeping the id', () => {
    expect(failed('{"id":"c-2","type":"room.start","data":[1,2]}')).toEqual({ id: 'c-2', code: RoomErrorCode.BadData, status: 400 });
  });

  it('refuses data that is not an object with 400 bad_data', () => {
    expect(failed('{"id":"c-3","type":"room.start","data":"x"}')).toMatchObject({ id: 'c-3', code: RoomErrorCode.BadData, status: 400 });
    expect(failed('{"id":"c-3","type":"room.start","data":null}')).toMatchObject({ id: 'c-3', code: RoomErrorCode.BadData, status: 400 });
    expect(failed('{"id":"c-3","type":"room.start","data":7}')).toMatchObject({ id: 'c-3', code: RoomErrorCode.BadData, status: 400 });
  });

  it('passes an unknown type through for validateCommand to refuse', () => {
    expect(parsed('{"id":"c-4","type":"room.dance"}').type).toBe('room.dance');
  });
});

describe(validateCommand.name, () => {
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

    it.each<Role>(['host', 'player', 'spectator'])('allows ping for a %s', (role) => {
      expect(validateCommand(frame('ping', {}, 'p-1'), role)).toEqual({ id: 'p-1', type: 'ping', data: {} });
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
      expect(validateCommand(frame('room.answer', { question: 1, choice: 1, extra: 'x' }), 'player').data).toEqual({ question: 1, choice: 1 });
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
      expect(validateCommand(frame('room.kick', { playerId: 'p-42' }), 'host')).toEqual({ id: 'c-1', type: 'room.kick', data: { playerId: 'p-42' } });
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
