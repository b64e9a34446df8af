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
    expect(lines).toEqual([{ time: expect.any(String), level: 'warn', msg: 'a client sent an invalid frame', code: 'WS_ERR_INVALID_OPCODE' }]);
  });
});
