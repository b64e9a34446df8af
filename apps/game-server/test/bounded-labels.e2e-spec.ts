import { randomBytes } from 'node:crypto';
import { HttpApi, MetricsSnapshot } from '@app/bot-kit';
import { labelVocabulary } from '@app/server';
import { GAMES } from '../src/games';

const COMMAND_TYPES = [...labelVocabulary(GAMES).commands];
import { RunningServer } from '../src/server';
import { TEST_ADMIN_TOKEN, withTestServer } from '../../../test/support/test-server';
import { closeAll, seatRoom } from './support';

const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

/** Every series of the server's own families, as `name{labels}`: what a client must not be able to add to. */
function gameSeries(m: MetricsSnapshot): string[] {
  return m.samples
    .filter((s) => s.name.startsWith('game_'))
    .map((s) => `${s.name}${JSON.stringify(Object.entries(s.labels).sort(([a], [b]) => a.localeCompare(b)))}`)
    .sort();
}

/**
 * Issue 8, item 2: a client names command types, the server names label values. Whatever type a
 * frame carries, /metrics, the admin overview and the room's last commands stay the same size.
 */
describe('labels a client cannot grow', () => {
  let server: RunningServer;
  let api: HttpApi;

  withTestServer((s) => {
    server = s;
    api = new HttpApi(s.url);
  });

  it('counts types outside the vocabulary as command="unknown", whatever their number or length', async () => {
    const room = await seatRoom(server, ['Ann']);
    const ann = room.players[0];
    // The first bad frame opens the `unknown` series; from then on nothing may add one.
    expect((await ann.send(`evil.type.${randomBytes(6).toString('hex')}`)).status).toBe(404);
    const before = await MetricsSnapshot.fetch(server.url);
    const bad = [...Array.from({ length: 5 }, () => `evil.type.${randomBytes(6).toString('hex')}`), 'x'.repeat(15_000)];
    for (const type of bad) expect((await ann.send(type)).status).toBe(404);
    const after = await MetricsSnapshot.fetch(server.url);

    // No series appeared (shown cut short: a failure must not print 15,000 characters either).
    const known = new Set(gameSeries(before));
    expect(
      gameSeries(after)
        .filter((s) => !known.has(s))
        .map((s) => s.slice(0, 120)),
    ).toEqual([]);
    expect(gameSeries(after)).toHaveLength(known.size);
    const unknown = { command: 'unknown', status_class: '4xx' };
    expect(after.value('game_command_duration_seconds_count', unknown) - before.value('game_command_duration_seconds_count', unknown)).toBe(
      bad.length,
    );
    expect(
      after.value('game_mailbox_wait_seconds_count', { command: 'unknown' }) -
        before.value('game_mailbox_wait_seconds_count', { command: 'unknown' }),
    ).toBe(bad.length);
    const commandLabels = new Set(after.samples.map((s) => s.labels.command).filter((c) => c !== undefined));
    expect([...commandLabels].filter((c) => c !== 'unknown' && !(COMMAND_TYPES as readonly string[]).includes(c))).toEqual([]);

    const overview = await api.request('GET', '/admin/api/overview', undefined, admin);
    expect(overview.status).toBe(200);
    const tallied: string[] = overview.body.commands.map((c: { command: string }) => c.command);
    expect(tallied.filter((c) => c !== 'unknown' && !(COMMAND_TYPES as readonly string[]).includes(c))).toEqual([]);
    expect(overview.body.commands.find((c: { command: string }) => c.command === 'unknown').count).toBeGreaterThanOrEqual(bad.length + 1);

    // The room keeps what it was sent, cut short: the 15,000 characters are not stored.
    const detail = await api.request('GET', `/admin/api/rooms/${room.code}`, undefined, admin);
    const types: string[] = detail.body.lastCommands.map((c: { type: string }) => c.type);
    expect(types).toHaveLength(bad.length + 1);
    expect(Math.max(...types.map((t) => t.length))).toBeLessThanOrEqual(64);
    closeAll(room);
  });
});
