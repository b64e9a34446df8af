import { Client } from 'pg';
import {
  ClusterMember,
  ClusterScript,
  CommandRecord,
  DURABLE_COMMANDS,
  epochMs,
  playResumingTriviaRoom,
  RecordSink,
  ResumingRoom,
  ResumingRoomReport,
  SeatCommandOutcome,
  SeatResume,
  sleep,
} from '@app/bot-kit';
import { Options, parseEnvList, UsageError } from '../cli';
import { BenchRun, botSettings, log, seededRandom, TargetSettings } from '../run';
import { summarize } from '../stats';
import { failoverReport } from './failover-report';
import { FailoverResult, FailoverSettings, InstanceRow, LostCommand, MovedRoom, RestartRow } from './failover-result';
import { InstanceRestart, rollThrough } from './failover-rolling';

/** Refusals of a resent command that mean the game moved on while the command was unanswered. They are not losses. */
const MOVED_ON = new Set(['question_closed', 'wrong_phase', 'rematch_closed', 'not_in_game']);

export function failoverMode(o: Options, target: TargetSettings): (run: BenchRun, command: string) => Promise<void> {
  if (target.url) throw new UsageError('failover starts its own cluster (npm run cluster); it cannot be combined with --url');
  const bots = botSettings(o, { seats: 4, questions: 8, secondsPerQuestion: 5, revealSeconds: 1, pingSeconds: 0 });
  if (bots.wire !== 'json') throw new UsageError(`--wire ${bots.wire}: failover's resuming seats speak JSON only`);
  const instances = o.number('instances', 3, 2, 16);
  const lease = o.string('lease-seconds');
  const clusterEnv = { ...parseEnvList(o.string('cluster-env')), ...(lease ? { LEASE_SECONDS: lease } : {}) };
  const rolling = o.flag('rolling');
  const killGiven = o.string('kill') !== undefined;
  const gapGiven = o.string('rolling-gap-s') !== undefined;
  if (rolling && killGiven)
    throw new UsageError('--kill names the instance to kill -9; --rolling restarts every instance instead: give one or the other');
  if (!rolling && gapGiven) throw new UsageError('--rolling-gap-s is the pause between the restarts of --rolling');
  const s: FailoverSettings = {
    instances,
    games: o.number('games', 30, 1, 2000),
    bots,
    killAfterMs: o.number('kill-after-s', 10, 0.5, 3600) * 1000,
    kill: o.string('kill', 'busiest'),
    ...(rolling ? { rolling: { gapMs: o.number('rolling-gap-s', 2, 0, 600) * 1000 } } : {}),
    staggerMs: o.number('stagger-ms', 100, 0, 60_000),
    resumeTimeoutMs: o.number('resume-timeout-s', 60, 5, 3600) * 1000,
    clusterEnv,
  };
  if (s.kill !== 'busiest' && !/^instance-\d+$/.test(s.kill))
    throw new UsageError(`--kill must be 'busiest' or an instance's name (instance-1 .. instance-${instances}), got '${s.kill}'`);
  if (s.kill !== 'busiest' && Number(s.kill.slice('instance-'.length)) > instances)
    throw new UsageError(`--kill ${s.kill}: the cluster has ${instances} instance(s)`);
  const gameMs = bots.questions * (bots.secondsPerQuestion + bots.revealSeconds) * 1000;
  if (s.killAfterMs >= gameMs)
    throw new UsageError(
      `--kill-after-s ${s.killAfterMs / 1000} is past the end of a game (${bots.questions} x (${bots.secondsPerQuestion} + ${bots.revealSeconds}) s): no room would be live to move`,
    );
  const title = o.string(
    'title',
    s.rolling
      ? `Rolling restart: ${s.games} games of ${bots.seats} seats through the proxy of ${instances} instances, each instance restarted in turn from ${s.killAfterMs / 1000} s, ${s.rolling.gapMs / 1000} s apart`
      : `Failover: ${s.games} games of ${bots.seats} seats through the proxy of ${instances} instances, kill -9 of ${s.kill === 'busiest' ? 'the busiest' : s.kill} at ${s.killAfterMs / 1000} s`,
  );
  o.assertAllUsed();
  return async (run, command) => {
    const result = await playFailover(s, { repo: run.cwd, record: run.record, signal: run.signal, keepLogsIn: run.out });
    run.writeFile('report.md', failoverReport({ title, command, settings: s, result, recordsFile: run.recordsFile }));
    run.writeFile('summary.json', JSON.stringify({ mode: 'failover', command, settings: s, ...result, rooms: undefined }, null, 2) + '\n');
    const counted = `acknowledged ${result.accounting.acknowledged}, found ${result.accounting.found}, lost ${result.accounting.lost}`;
    if (result.rolling) {
      const r = result.rolling;
      log(
        `${counted}; games started ${result.games.started}, finished ${result.games.finished}; ${r.restarts.length} restart(s), ${r.moved} room(s) moved, drain to first command served again p50 ${fmt(r.p50Ms)} ms, max ${fmt(r.maxMs)} ms`,
      );
    } else if (result.failover) {
      log(
        `${counted}; ${result.failover.moved.length} room(s) moved, kill to first command served elsewhere p50 ${fmt(result.failover.p50Ms)} ms, max ${fmt(result.failover.maxMs)} ms`,
      );
    }
    if (!result.passed) throw new Error(`the failover run did not pass: ${result.failures.join('; ')} (see ${run.out}/report.md)`);
  };
}

const fmt = (v: number | undefined) => (v === undefined ? '-' : String(Math.round(v)));

/**
 * Runs the mode's core, which its e2e test also runs. It starts the cluster and plays every room
 * through the proxy. At the set time it kills one instance with SIGKILL (or restarts every instance
 * in turn), and lets every room play on. Then it checks against PostgreSQL what was acknowledged,
 * and times each moved room's return.
 */
export async function playFailover(
  s: FailoverSettings,
  io: { repo: string; record?: RecordSink; signal?: AbortSignal; keepLogsIn?: string },
): Promise<FailoverResult> {
  log(`starting the cluster: ${s.instances} instance(s) behind HAProxy (scripts/cluster.mjs)`);
  const cluster = await ClusterScript.start(io.repo, s.instances, s.clusterEnv, log);
  try {
    log(`proxy at ${cluster.proxy}`);
    return await playOn(cluster, s, io);
  } finally {
    if (io.keepLogsIn) cluster.keepLogs(io.keepLogsIn);
    await cluster.stop();
  }
}

async function playOn(
  cluster: ClusterScript,
  s: FailoverSettings,
  io: { record?: RecordSink; signal?: AbortSignal },
): Promise<FailoverResult> {
  const random = seededRandom(s.bots.seed);
  const records: CommandRecord[] = [];
  const record: RecordSink = (r) => {
    records.push(r);
    io.record?.(r);
  };
  const outcomes: SeatCommandOutcome[] = [];
  const resumes: SeatResume[] = [];
  const rooms = new Map<string, ResumingRoom>();
  const startedAt = epochMs();
  const plays: Promise<ResumingRoomReport>[] = [];
  // The rolling restart starts once every room's game has begun, or its room was given up.
  const gamesBegun = new Set<string>();
  let playsOver = 0;
  let allOpened = false;
  let victim: string | undefined;
  let killedAt: number | undefined;
  let ownersAtKill = new Map<string, Set<string>>();

  const untilKillTime = () => sleep(Math.max(0, startedAt + s.killAfterMs - epochMs()), io.signal);
  const kill = async () => {
    await untilKillTime();
    if (io.signal?.aborted) return;
    const held = await cluster.roomsByInstance();
    // Only this run's rooms count. The instances hold nothing else, but the filter says so.
    for (const [name, codes] of held) held.set(name, new Set([...codes].filter((c) => rooms.has(c))));
    ownersAtKill = held;
    victim = s.kill === 'busiest' ? [...held].sort((a, b) => b[1].size - a[1].size || a[0].localeCompare(b[0]))[0][0] : s.kill;
    const target = cluster.member(victim);
    log(`kill -9 ${victim} (pid ${target.pid}), which holds ${held.get(victim)?.size ?? 0} of the run's rooms`);
    killedAt = epochMs();
    process.kill(target.pid, 'SIGKILL');
  };
  const roll = async (gapMs: number): Promise<InstanceRestart[]> => {
    await untilKillTime();
    // Wait until every game is under way, so that every game is live through the first restart,
    // however slowly a busy machine opens the rooms. This polls a state of this process, often.
    while (!io.signal?.aborted && !(allOpened && gamesBegun.size + playsOver >= plays.length)) await sleep(100, io.signal);
    if (io.signal?.aborted) return [];
    log(`every game has started: restarting the ${cluster.instances.length} instances one at a time`);
    return rollThrough(cluster, { gapMs, isRunRoom: (code) => rooms.has(code), signal: io.signal, log });
  };
  const disruption = s.rolling ? roll(s.rolling.gapMs) : kill().then(() => []);

  for (let g = 0; g < s.games && !io.signal?.aborted; g++) {
    const play = playResumingTriviaRoom({
      baseUrl: cluster.proxy,
      seats: s.bots.seats,
      questionCount: s.bots.questions,
      secondsPerQuestion: s.bots.secondsPerQuestion,
      revealSeconds: s.bots.revealSeconds,
      pause: s.bots.pause,
      commandTimeoutMs: s.bots.commandTimeoutMs,
      resumeTimeoutMs: s.resumeTimeoutMs,
      record,
      tags: { game: g + 1 },
      random,
      signal: io.signal,
      onRoom: (r) => rooms.set(r.code, r),
      onCommand: (c) => {
        outcomes.push(c);
        if (c.type === 'room.start' && c.status === 200) gamesBegun.add(c.room);
      },
      onResume: (r) => resumes.push(r),
    });
    // A room that ended without its game having begun no longer holds the restarts back.
    void play.then((r) => !r.started && playsOver++);
    plays.push(play);
    if (s.staggerMs > 0) await sleep(s.staggerMs, io.signal);
  }
  allOpened = true;
  log(`${plays.length} room(s) opened; waiting for every game to end`);
  const reports = await Promise.all(plays);
  const restarted = await disruption;
  const finishedAt = epochMs();
  if (!s.rolling && (!victim || killedAt === undefined)) throw new Error('the run ended before the kill (interrupted?)');

  log('counting the acknowledged commands in PostgreSQL');
  const accounting = await account(cluster.databaseUrl(), rooms, outcomes);
  const retried = outcomes.filter((o) => o.busy > 0 || o.unanswered > 0);
  const errors = reports.filter((r) => r.error).map((r) => `${r.room ?? '?'}: ${r.error}`);
  const games = {
    rooms: reports.length,
    started: reports.filter((r) => r.started).length,
    finished: reports.filter((r) => r.finished).length,
    failed: errors.length,
    errors,
  };
  const failures: string[] = [];
  if (accounting.lost > 0) failures.push(`${accounting.lost} acknowledged command(s) are not in the database`);
  const common = {
    proxy: cluster.proxy,
    instances: cluster.instances,
    startedAt,
    finishedAt,
    accounting,
    retries: {
      refused503: outcomes.reduce((n, o) => n + o.busy, 0),
      commandsRefused503: outcomes.filter((o) => o.busy > 0).length,
      succeededAfter503: outcomes.filter((o) => o.busy > 0 && ok(o)).length,
      resent: outcomes.filter((o) => o.unanswered > 0).length,
      succeededAfterResend: outcomes.filter((o) => o.unanswered > 0 && ok(o)).length,
      refusedMovedOn: retried.filter((o) => o.status === 409 && MOVED_ON.has(o.error ?? '')).length,
      unresolved: outcomes.filter((o) => o.status === null).length,
      httpRefused: records.filter(
        (r) => r.type.startsWith('http ') && (r.status === null || r.status === 502 || r.status === 503 || r.status === 504),
      ).length,
    },
    games,
  };

  if (s.rolling) {
    const restarts = restarted.map((r) => restartRow(r, outcomes, resumes, records));
    const served = restarts.flatMap((r) => r.moved.filter((m) => m.firstOkMs !== undefined).map((m) => m.firstOkMs!));
    const summary = summarize(served);
    const firstDrain = restarted[0]?.drainAt ?? Infinity;
    const rolling = {
      gapMs: s.rolling.gapMs,
      restarts,
      moved: restarts.reduce((n, r) => n + r.moved.length, 0),
      servedAgain: served.length,
      minMs: summary.min,
      p50Ms: summary.p50,
      maxMs: summary.max,
      failedReconnects: failedReconnects(resumes, firstDrain),
    };
    for (const r of restarts) if (r.error) failures.push(`restarting ${r.instance} failed: ${r.error}`);
    const notReached = cluster.instances.filter((i) => !restarts.some((r) => r.instance === i.instance)).map((i) => i.instance);
    if (notReached.length)
      failures.push(
        `${notReached.length} instance(s) were never restarted (the rolling restart stopped before them): ${notReached.join(', ')}`,
      );
    if (restarts.length && !rolling.moved) failures.push('no room of the run was asked anything of an instance while it restarted');
    for (const r of restarts)
      if (r.notServedAgain.length)
        failures.push(`${r.notServedAgain.length} room(s) moved off ${r.instance} were not served again: ${r.notServedAgain.join(', ')}`);
    if (games.started > games.finished) failures.push(`${games.started - games.finished} game(s) started and did not finish (dropped)`);
    if (errors.length) failures.push(`${errors.length} room(s) failed: ${errors.slice(0, 3).join('; ')}`);
    const cuts = new Map(
      restarts.map((r, i) => [
        r.instance,
        {
          at: r.drainAt,
          afterFrom: restarted[i].stoppedAt ?? Infinity,
          rooms: new Set(restarted[i].rooms),
          killed: false,
          restarted: !r.error,
        },
      ]),
    );
    return {
      disruption: 'rolling',
      ...common,
      rooms: reports,
      rolling,
      perInstance: perInstance(cluster.instances, cuts, outcomes, records),
      passed: failures.length === 0,
      failures,
    };
  }

  const movedCodes = [...(ownersAtKill.get(victim!) ?? [])];
  const elsewhere = (servedBy: string | undefined) => servedBy !== undefined && servedBy !== victim;
  const moved = movedCodes.map((code) => movedRoom(code, killedAt!, elsewhere, outcomes, resumes, records));
  const served = moved.filter((m) => m.firstOkMs !== undefined).map((m) => m.firstOkMs!);
  const summary = summarize(served);
  const failover = {
    moved,
    servedAgain: served.length,
    notServedAgain: moved.filter((m) => m.firstOkMs === undefined).map((m) => m.code),
    minMs: summary.min,
    p50Ms: summary.p50,
    maxMs: summary.max,
    failedReconnects: failedReconnects(resumes, killedAt!),
  };
  if (!moved.length) failures.push(`no room of the run was live on ${victim} at the kill`);
  if (failover.notServedAgain.length)
    failures.push(`${failover.notServedAgain.length} moved room(s) were not served again: ${failover.notServedAgain.join(', ')}`);
  const cuts = new Map(
    cluster.instances.map((i) => [
      i.instance,
      {
        at: killedAt!,
        afterFrom: killedAt!,
        rooms: ownersAtKill.get(i.instance) ?? new Set<string>(),
        killed: i.instance === victim,
        restarted: false,
      },
    ]),
  );
  return {
    disruption: 'kill',
    ...common,
    victim,
    killedAt,
    rooms: reports.map((r) => ({ ...r, ...(r.room && movedCodes.includes(r.room) ? { movedFrom: victim } : {}) })),
    failover,
    perInstance: perInstance(cluster.instances, cuts, outcomes, records),
    passed: failures.length === 0,
    failures,
  };
}

const ok = (o: SeatCommandOutcome) => o.status !== null && o.status >= 200 && o.status < 300;

/** Counts how the seats' reconnects after `since` failed, by way of failing (`upgrade 503`, `close 1012`...). */
function failedReconnects(resumes: readonly SeatResume[], since: number): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const r of resumes.filter((x) => x.at > since)) for (const [why, n] of Object.entries(r.failed)) sums[why] = (sums[why] ?? 0) + n;
  return sums;
}

/**
 * Times one turn of a rolling restart. It takes each room that the instance held at the drain's
 * start and that was asked something after it. It times the room from the drain's start to its
 * first 2xx reply from another instance or from the instance's new process (anything served under
 * the instance's name after the old process exited). A 2xx from the draining process itself (for a
 * command it took before the drain and replied to during it) is not a return.
 */
function restartRow(
  r: InstanceRestart,
  outcomes: readonly SeatCommandOutcome[],
  resumes: readonly SeatResume[],
  records: readonly CommandRecord[],
): RestartRow {
  const newProcess = (at: number) => r.stoppedAt !== undefined && at >= r.stoppedAt;
  const servedAgain = (servedBy: string | undefined, at: number) => servedBy !== undefined && (servedBy !== r.instance || newProcess(at));
  const byOldProcess = (o: SeatCommandOutcome) => ok(o) && o.servedBy === r.instance && !newProcess(o.repliedAt!);
  const askedAfter = (code: string) => outcomes.some((o) => o.room === code && (o.repliedAt ?? Infinity) > r.drainAt && !byOldProcess(o));
  const moved = r.rooms.filter(askedAfter).map((code) => movedRoom(code, r.drainAt, servedAgain, outcomes, resumes, records));
  const times = moved.filter((m) => m.firstOkMs !== undefined).map((m) => m.firstOkMs!);
  const summary = summarize(times);
  return {
    instance: r.instance,
    oldPid: r.oldPid,
    ...(r.newPid !== undefined ? { newPid: r.newPid } : {}),
    drainAt: r.drainAt,
    ...(r.stoppedAt !== undefined ? { stoppedMs: Math.round(r.stoppedAt - r.drainAt) } : {}),
    ...(r.downMs !== undefined ? { downMs: r.downMs } : {}),
    ...(r.servingAt !== undefined ? { servingAgainMs: r.servingAt - r.drainAt } : {}),
    rooms: r.rooms.length,
    moved,
    endedMeanwhile: r.rooms.filter((code) => !askedAfter(code)),
    servedAgain: times.length,
    servedElsewhere: moved.filter((m) => m.servedBy !== undefined && m.servedBy !== r.instance).length,
    servedByNewProcess: moved.filter((m) => m.servedBy === r.instance).length,
    notServedAgain: moved.filter((m) => m.firstOkMs === undefined).map((m) => m.code),
    minMs: summary.min,
    p50Ms: summary.p50,
    maxMs: summary.max,
    ...(r.error ? { error: r.error } : {}),
  };
}

/**
 * Times from `since` (the kill, or a drain's start) to a moved room's first socket back and first
 * 2xx reply. Each must come from an instance that `servedAgain` accepts, judged by the proxy's
 * `X-Served-By` and the time.
 */
function movedRoom(
  code: string,
  since: number,
  servedAgain: (servedBy: string | undefined, at: number) => boolean,
  outcomes: readonly SeatCommandOutcome[],
  resumes: readonly SeatResume[],
  records: readonly CommandRecord[],
): MovedRoom {
  const after = outcomes.filter(
    (o) => o.room === code && o.repliedAt !== undefined && o.repliedAt > since && ok(o) && servedAgain(o.servedBy, o.repliedAt),
  );
  const first = (list: readonly SeatCommandOutcome[]) =>
    list.length ? list.reduce((a, b) => (b.repliedAt! < a.repliedAt! ? b : a)) : undefined;
  const firstOk = first(after);
  const firstCommit = first(after.filter((o) => DURABLE_COMMANDS.has(o.type)));
  const back = resumes.filter((r) => r.room === code && r.at > since && servedAgain(r.servedBy, r.at)).map((r) => r.at);
  const accepted = records
    .filter(
      (r) =>
        r.type === 'ws.connect' &&
        r.status === 101 &&
        r.room === code &&
        r.sentAt > since &&
        servedAgain(r.servedBy as string | undefined, r.sentAt + r.ms),
    )
    .map((r) => r.sentAt + r.ms);
  return {
    code,
    ...(accepted.length ? { proxyMovedMs: Math.min(...accepted) - since } : {}),
    ...(back.length ? { resumedMs: Math.min(...back) - since } : {}),
    ...(firstOk ? { firstOkMs: firstOk.repliedAt! - since, servedBy: firstOk.servedBy } : {}),
    ...(firstCommit ? { firstCommitMs: firstCommit.repliedAt! - since } : {}),
  };
}

/**
 * Looks for every durable command acknowledged with 2xx in PostgreSQL, by its room, seat and id,
 * wherever the database keeps it. That is the room's journal (the commands since the room's latest
 * snapshot), the replies that snapshot keeps for resends, or, once the game it belongs to finished
 * (and its snapshot cut the journal), that game's record. In a game's record, an answer is found by
 * its player and question (the bots' ids end in `-q<question>`), and a start by the game it began.
 */
async function account(
  databaseUrl: string,
  rooms: ReadonlyMap<string, ResumingRoom>,
  outcomes: readonly SeatCommandOutcome[],
): Promise<FailoverResult['accounting']> {
  const key = (roomId: string, who: string, id: string) => `${roomId}|${who}|${id}`;
  const acked = new Map<string, { type: string; lost: LostCommand; inRecord: () => boolean }>();
  for (const o of outcomes) {
    if (!DURABLE_COMMANDS.has(o.type) || o.status === null || o.status < 200 || o.status >= 300) continue;
    const room = rooms.get(o.room);
    if (!room) continue;
    const who = o.seat === 'host' ? 'host' : room.players[o.seat];
    acked.set(key(room.roomId, who, o.id), {
      type: o.type,
      lost: { room: o.room, seat: o.seat, type: o.type, id: o.id },
      inRecord: () => inRecord(room.roomId, who, o.type, o.id),
    });
  }
  const ids = [...rooms.values()].map((r) => r.roomId);
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  const found = new Set<string>();
  // These hold the answers in finished games' records (room, player, question), and the rooms that
  // have a finished game.
  const recorded = new Set<string>();
  const gamesFinished = new Set<string>();
  try {
    const queries = [
      // Look in the command's room's journal, under its seat (the host has none) and id.
      `SELECT room_id::text AS room, coalesce(actor->>'seat', 'host') AS who, command_id AS id FROM room_journal WHERE room_id = ANY($1::uuid[]) AND kind = 'command'`,
      // Look among the replies the room's snapshot keeps, under the seat's key (`host`, `p:<player>`).
      `SELECT s.room_id::text AS room, CASE WHEN r->>'seat' = 'host' THEN 'host' ELSE substr(r->>'seat', 3) END AS who, r->'reply'->>'id' AS id
       FROM room_snapshots s, jsonb_array_elements(s.state->'replies') r
       WHERE s.room_id = ANY($1::uuid[]) AND (r->>'seat' = 'host' OR r->>'seat' LIKE 'p:%') AND (r->'reply'->>'status')::int < 300`,
    ];
    for (const sql of queries)
      for (const row of (await db.query<{ room: string; who: string; id: string }>(sql, [ids])).rows)
        found.add(key(row.room, row.who, row.id));
    const answers = await db.query<{ room: string; who: string; question: number }>(
      `SELECT f.room_id::text AS room, a->>'playerId' AS who, (q->>'index')::int AS question
       FROM finished_games f, jsonb_array_elements(f.summary->'questions') q, jsonb_array_elements(q->'answers') a WHERE f.room_id = ANY($1::uuid[])`,
      [ids],
    );
    for (const row of answers.rows) {
      recorded.add(key(row.room, row.who, String(row.question)));
      gamesFinished.add(row.room);
    }
  } finally {
    await db.end();
  }
  const inRecord = (roomId: string, who: string, type: string, id: string) => {
    if (type === 'room.start') return gamesFinished.has(roomId);
    const question = type === 'room.answer' ? /-q(\d+)$/.exec(id)?.[1] : undefined;
    return question !== undefined && recorded.has(key(roomId, who, question));
  };
  const byType: Record<string, { acknowledged: number; found: number }> = {};
  const lostCommands: LostCommand[] = [];
  for (const [k, { type, lost, inRecord: recordHas }] of acked) {
    const t = (byType[type] ??= { acknowledged: 0, found: 0 });
    t.acknowledged++;
    if (found.has(k) || recordHas()) t.found++;
    else lostCommands.push(lost);
  }
  const acknowledged = acked.size;
  const foundCount = acknowledged - lostCommands.length;
  return { acknowledged, found: foundCount, lost: lostCommands.length, byType, lostCommands: lostCommands.slice(0, 50) };
}

/** Where each instance's figures split into before and after: at the kill (for all), or at its own restart. */
interface InstanceCut {
  /** Answers sent before this are "before". */
  readonly at: number;
  /** Rooms with a reply after this are "served after". In a rolling restart, this is when the new process is up. */
  readonly afterFrom: number;
  readonly rooms: ReadonlySet<string>;
  readonly killed: boolean;
  readonly restarted: boolean;
}

/** Counts rooms, acknowledged answers and their client latency per instance, before and after its cut. */
function perInstance(
  instances: readonly ClusterMember[],
  cuts: ReadonlyMap<string, InstanceCut>,
  outcomes: readonly SeatCommandOutcome[],
  records: readonly CommandRecord[],
): InstanceRow[] {
  return instances.map(({ instance }) => {
    // For an instance that a rolling restart never reached, everything is "before".
    const cut = cuts.get(instance) ?? { at: Infinity, afterFrom: Infinity, rooms: new Set<string>(), killed: false, restarted: false };
    const answers = records.filter((r) => r.type === 'room.answer' && r.status === 200 && r.servedBy === instance);
    const before = answers.filter((r) => r.sentAt < cut.at).map((r) => r.ms);
    const after = answers.filter((r) => r.sentAt >= cut.at).map((r) => r.ms);
    const b = summarize(before);
    const a = summarize(after);
    const roomsAfter = new Set(
      outcomes.filter((o) => o.servedBy === instance && o.repliedAt !== undefined && o.repliedAt > cut.afterFrom).map((o) => o.room),
    );
    return {
      instance,
      killed: cut.killed,
      restarted: cut.restarted,
      roomsAtKill: cut.rooms.size,
      roomsAfter: roomsAfter.size,
      answersBefore: before.length,
      answersAfter: after.length,
      p50Before: b.p50,
      p99Before: b.p99,
      p50After: a.p50,
      p99After: a.p99,
    };
  });
}
