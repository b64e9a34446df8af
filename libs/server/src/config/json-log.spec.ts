import { JsonLog } from './json-log';

describe(JsonLog.name, () => {
  function capture(level: 'debug' | 'info' | 'warn' | 'error') {
    const lines: any[] = [];
    return { log: new JsonLog(level, (l) => lines.push(JSON.parse(l))), lines };
  }

  it('writes one JSON object per line with time, level, message and fields', () => {
    const { log, lines } = capture('info');
    log.info('room activated', { room: 'ABCDEF' });
    expect(lines).toEqual([{ time: expect.any(String), level: 'info', msg: 'room activated', room: 'ABCDEF' }]);
  });

  it('drops what is below its level', () => {
    const { log, lines } = capture('warn');
    log.debug('a');
    log.info('b');
    log.warn('c');
    log.error('d');
    expect(lines.map((l) => l.msg)).toEqual(['c', 'd']);
  });

  it("keeps Nest's start-up chatter at debug and a client's broken frame at warn", () => {
    const { log, lines } = capture('info');
    log.log('Mapped {/api/rooms, POST} route', 'RouterExplorer');
    log.error(Object.assign(new Error('Invalid WebSocket frame'), { code: 'WS_ERR_INVALID_OPCODE' }));
    expect(lines).toEqual([
      { time: expect.any(String), level: 'warn', msg: 'a client sent an invalid frame', code: 'WS_ERR_INVALID_OPCODE' },
    ]);
  });

  describe('what a client wrote', () => {
    it('cuts a long field value to 256 characters, with an ellipsis and its original length', () => {
      const { log, lines } = capture('info');
      log.warn('command refused with 503', { room: 'ABCDEF', command: 'x'.repeat(15_000) });
      expect(lines[0]).toEqual({
        time: expect.any(String),
        level: 'warn',
        msg: 'command refused with 503',
        room: 'ABCDEF',
        command: `${'x'.repeat(256)}… (15000 chars)`,
      });
    });

    it('cuts a long message and a long nested value too', () => {
      const { log, lines } = capture('info');
      log.error('y'.repeat(15_000), { detail: { name: 'z'.repeat(15_000) }, small: { ok: true } });
      expect(lines[0].msg).toBe(`${'y'.repeat(1024)}… (15000 chars)`);
      expect(lines[0].detail).toMatch(/^\{"name":"z+… \(15011 chars\)$/);
      expect(lines[0].detail).toHaveLength(256 + '… (15011 chars)'.length);
      expect(lines[0].small).toEqual({ ok: true });
    });

    it('gives a stack trace 4096 characters', () => {
      const { log, lines } = capture('info');
      log.error('command failed unexpectedly', { error: 's'.repeat(5000) });
      expect(lines[0].error).toBe(`${'s'.repeat(4096)}… (5000 chars)`);
    });

    it('keeps at most 16 fields and says how many it dropped', () => {
      const { log, lines } = capture('info');
      log.info('many', Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`f${i}`, i])));
      const { time, level, msg, fieldsDropped, ...kept } = lines[0];
      expect({ level, msg, fieldsDropped }).toEqual({ level: 'info', msg: 'many', fieldsDropped: 984 });
      expect(Object.keys(kept)).toEqual(Array.from({ length: 16 }, (_, i) => `f${i}`));
    });

    it('never lets a field replace the time, level or message', () => {
      const { log, lines } = capture('info');
      log.info('real', { msg: 'forged', level: 'error', time: 'then', room: 'ABCDEF' });
      expect(lines[0]).toEqual({ time: expect.not.stringMatching(/^then$/), level: 'info', msg: 'real', room: 'ABCDEF' });
    });

    it('keeps a line small whatever it is given', () => {
      const raw: string[] = [];
      const log = new JsonLog('info', (l) => raw.push(l));
      const huge = 'é'.repeat(15_000);
      log.error(huge, Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`${huge}${i}`, huge])));
      expect(raw).toHaveLength(1);
      // The bound allows 16 fields of a 64-character key and a 256-character value, plus the
      // message and the envelope.
      expect(raw[0].length).toBeLessThan(16 * (64 + 256 + 40) + 1024 + 200);
    });
  });
});
