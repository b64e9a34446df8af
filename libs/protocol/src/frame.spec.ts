import fc from 'fast-check';
import { CommandFrame, dataObject, isStorableText, parseFrame, RoomErrorCode, RoomException } from '@app/protocol';

function parsed(text: string): CommandFrame {
  const result = parseFrame(text);
  if (!result.ok) throw new Error(`expected ${text} to parse, got ${result.error.code}`);
  return result.frame;
}

function failed(text: string): { id: string | null; code: string; status: number } {
  const result = parseFrame(text);
  if (result.ok) throw new Error(`expected ${text} to fail`);
  return { id: result.id, code: result.error.code, status: result.error.status };
}

describe(parseFrame.name, () => {
  it('reads a well-formed command', () => {
    expect(parseFrame('{"id":"c-17","type":"round.move","data":{"round":3,"move":2}}')).toEqual({
      ok: true,
      frame: { id: 'c-17', type: 'round.move', data: { round: 3, move: 2 } },
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

  it('passes data that is not an object on as sent: its shape is judged after the type and the role', () => {
    expect(parsed('{"id":"c-2","type":"game.move","data":[1,2]}').data).toEqual([1, 2]);
    expect(parsed('{"id":"c-3","type":"game.move","data":"x"}').data).toBe('x');
    expect(parsed('{"id":"c-3","type":"game.move","data":null}').data).toBeNull();
  });

  it('passes an unknown type through for the game to refuse', () => {
    expect(parsed('{"id":"c-4","type":"room.dance"}').type).toBe('room.dance');
  });
});

describe(dataObject.name, () => {
  const frame = (data: unknown): CommandFrame => ({ id: 'c-1', type: 'game.move', data });

  it('returns object data', () => {
    expect(dataObject(frame({ a: 1 }))).toEqual({ a: 1 });
  });

  it.each([
    ['an array', [1]],
    ['a string', 'x'],
    ['null', null],
    ['a number', 7],
  ])('refuses %s with 400 bad_data', (_what, data) => {
    let err: unknown;
    try {
      dataObject(frame(data));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(RoomException);
    expect((err as RoomException).code).toBe(RoomErrorCode.BadData);
    expect((err as RoomException).status).toBe(400);
  });
});

/** A reference check: encodeURIComponent throws on a lone surrogate, and on nothing else a string may hold. */
function wellFormed(s: string): boolean {
  try {
    encodeURIComponent(s);
    return true;
  } catch {
    return false;
  }
}

describe('texts PostgreSQL cannot store', () => {
  // Use fast-check's full Unicode strings, with NUL, lone surrogates and separators mixed in.
  const anyText = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 80 }),
    fc.constantFrom('\0', 'a\0b', '\ud800', 'x\udc00', '\udc00\ud800', '\u2028', '😀', '\ud83d\ude00'),
    fc.string({ unit: fc.constantFrom('a', '\0', '\ud83d', '\ude00', '\u2028'), maxLength: 12 }),
  );

  it('isStorableText refuses exactly a NUL and a lone surrogate', () => {
    fc.assert(
      fc.property(anyText, (s) => {
        expect(isStorableText(s)).toBe(wellFormed(s) && !s.includes('\0'));
      }),
    );
  });

  it('no frame that parses carries an unstorable text, in its id, type or data', () => {
    fc.assert(
      fc.property(anyText, anyText, anyText, anyText, (id, type, key, value) => {
        const result = parseFrame(JSON.stringify({ id, type, data: { [key]: value, list: [value], nested: { [key]: [{ value }] } } }));
        if (!result.ok) {
          expect(result.error.status).toBe(400);
          return;
        }
        const texts = JSON.stringify(result.frame);
        expect(isStorableText(texts)).toBe(true);
        expect(texts.includes('\\u0000')).toBe(false);
      }),
    );
  });

  it('names where the text is: the id, the type, or the path in data', () => {
    expect(failed(JSON.stringify({ id: 'a\0', type: 'ping' }))).toEqual({ id: null, code: RoomErrorCode.BadId, status: 400 });
    expect(failed(JSON.stringify({ id: '\ud800', type: 'ping' }))).toEqual({ id: null, code: RoomErrorCode.BadId, status: 400 });
    expect(failed(JSON.stringify({ id: 'c-1', type: 'room.\0' }))).toEqual({ id: 'c-1', code: RoomErrorCode.BadFrame, status: 400 });
    const deep = parseFrame(JSON.stringify({ id: 'c-2', type: 'room.answer', data: { answers: ['ok', 'x\udfff'] } }));
    expect(deep).toMatchObject({
      ok: false,
      id: 'c-2',
      error: { code: RoomErrorCode.BadData, message: 'data.answers[1] holds a NUL character or a lone surrogate' },
    });
    const key = parseFrame(JSON.stringify({ id: 'c-3', type: 'room.answer', data: { ['k\0']: 1 } }));
    expect(key).toMatchObject({ ok: false, error: { message: 'a key of data holds a NUL character or a lone surrogate' } });
  });

  it('takes every other text as it is: separators, emoji as pairs, 64 KiB', () => {
    const big = 'é'.repeat(64 * 1024);
    expect(parsed(JSON.stringify({ id: '\u2028😀', type: 'room.say', data: { text: big, pair: '\ud83d\ude00' } }))).toEqual({
      id: '\u2028😀',
      type: 'room.say',
      data: { text: big, pair: '😀' },
    });
  });

  it('refuses data nested past what any command needs', () => {
    let data: unknown = 1;
    for (let i = 0; i < 40; i++) data = [data];
    expect(parseFrame(JSON.stringify({ id: 'c-4', type: 'room.answer', data }))).toMatchObject({
      ok: false,
      error: { code: RoomErrorCode.BadData },
    });
  });
});
