import type { Overview, RoomDetail, RoomRow } from '../lib/admin-types'

export function overviewFixture(patch: Partial<Overview> = {}): Overview {
  return {
    rooms: 2,
    sockets: { host: 2, player: 5, spectator: 1 },
    commandsPerSecond: 3.2,
    commands: [
      { command: 'room.answer', count: 40, meanMs: 4.5 },
      { command: 'room.start', count: 2, meanMs: 6 },
    ],
    pool: { total: 4, idle: 3, waiting: 0, max: 10 },
    poolAcquire: { count: 50, meanMs: 0.3 },
    admission: {
      shedding: false,
      cause: null,
      since: null,
      refused: 0,
      signals: [
        { signal: 'event_loop_delay', levelMs: 1.2, markMs: 500, admitBelowMs: 250 },
        { signal: 'commit_wait', levelMs: 3.4, markMs: 500, admitBelowMs: 250 },
        { signal: 'pool_wait', levelMs: 0, markMs: 500, admitBelowMs: 250 },
      ],
      anonymous: { shedding: false, since: null, markMs: 30, admitBelowMs: 15, refused: 0 },
      commitFloorMs: 61.2,
    },
    build: { version: '0.1.0', sha: '0123456789abcdef' },
    serverTime: 1_700_000_000_000,
    ...patch,
  }
}

export function roomRowFixture(patch: Partial<RoomRow> = {}): RoomRow {
  return {
    code: 'K7QMPD',
    game: 'trivia',
    phase: 'question',
    playersConnected: 3,
    players: 3,
    question: 1,
    mailboxDepth: 0,
    mailboxDepthMax: 2,
    statementsInFlight: 0,
    commands: 12,
    lastCommandMs: 3.4,
    ageSeconds: 95,
    ...patch,
  }
}

export function roomDetailFixture(patch: Partial<RoomDetail> = {}): RoomDetail {
  return {
    code: 'K7QMPD',
    game: 'trivia',
    statementsInFlight: 0,
    phase: 'question',
    playersConnected: 2,
    question: 1,
    mailboxDepth: 1,
    mailboxDepthMax: 3,
    commands: 12,
    lastCommandMs: 3.4,
    ageSeconds: 95,
    hostName: 'Hana',
    players: [
      { id: 'p-ann', name: 'Ann', connected: true, score: 1850 },
      { id: 'p-bob', name: 'Bob', connected: true, score: 920 },
      { id: 'p-cy', name: 'Cy', connected: false, score: 0 },
    ],
    openQuestion: { index: 1, total: 10, text: 'Which planet has the most moons?', closesAt: 1_700_000_010_000 },
    lastCommands: [
      { type: 'room.start', at: 1_700_000_000_000, mailboxWaitMs: 0.1, ms: 5.2, status: 200, roundTrips: 1 },
      { type: 'room.answer', at: 1_700_000_001_000, mailboxWaitMs: 1.5, ms: 4.1, status: 200, roundTrips: 1 },
      { type: 'room.answer', at: 1_700_000_001_100, mailboxWaitMs: 0.2, ms: 0.4, status: 409, roundTrips: 0 },
    ],
    replyMemory: { seats: 2, ids: 3, bytes: 331, inFlight: 0, sockets: 0 },
    ...patch,
  }
}
