import { BenchRun } from '../run';
import { fmtMs, fmtNum, rawFilesNote, table } from '../report';
import { FAILOVER_GOAL_MS, FailoverResult, FailoverSettings } from './failover-result';

/** Writes report.md of a `failover` run: the verdict first, then the accounting, the moved rooms, and each instance. */
export function failoverReport(p: {
  title: string;
  command: string;
  settings: FailoverSettings;
  result: FailoverResult;
  recordsFile: string;
}): string {
  const { settings: s, result: r } = p;
  const at = (ms: number) => new Date(ms).toISOString();
  const rolling = r.rolling;
  const lines = [`# ${p.title}`, '', `Made by: \`${p.command}\``, ''];
  const cluster = `scripts/cluster.mjs started with ${s.instances} instances behind HAProxy (a fresh embedded PostgreSQL of its own${
    Object.keys(s.clusterEnv).length
      ? `, instances with ${Object.entries(s.clusterEnv)
          .map(([k, v]) => `${k}=${v}`)
          .join(' ')}`
      : ', instances with the default lease (LEASE_SECONDS 6)'
  }); ${s.games} rooms of ${s.bots.seats} player seat(s) and a host, opened ${s.staggerMs} ms apart, each playing one game of ${s.bots.questions} question(s) (${s.bots.secondsPerQuestion} s each, ${s.bots.revealSeconds} s reveal) through the proxy only.`;
  if (rolling) {
    const first = rolling.restarts[0];
    lines.push(
      `Run ${at(r.startedAt)} to ${at(r.finishedAt)}. Mode \`failover --rolling\` (a rolling restart, no kill): ${cluster} From ${first ? `${((first.drainAt - r.startedAt) / 1000).toFixed(1)} s` : 'never'} after the first room opened (--kill-after-s ${s.killAfterMs / 1000}, and not before every game had started), **every instance was restarted in turn**: a \`restart <name>\` line on the cluster script's stdin, which sends SIGTERM (the instance drains: commands refused with 503, its rooms finish what they hold, its leases are released, its sockets closed with 1001), waits for it to exit and starts it again with the same name, port and data folder; the next restart came ${rolling.gapMs / 1000} s after the proxy sent the previous instance a request again.`,
    );
  } else {
    const killS = (r.killedAt! - r.startedAt) / 1000;
    lines.push(
      `Run ${at(r.startedAt)} to ${at(r.finishedAt)}. Mode \`failover\`: ${cluster} **${r.victim}** was killed with SIGKILL ${killS.toFixed(1)} s after the first room opened (${s.kill === 'busiest' ? "the instance holding the most of the run's rooms" : 'named on the command line'}).`,
    );
  }
  lines.push('', `Machine: ${BenchRun.machine()}.`, '', '## Verdict', '');
  // Both modes' verdicts open with what was kept. Each then says what its own disruption did.
  const kept = [
    ['durable commands acknowledged 2xx to a bot', fmtNum(r.accounting.acknowledged), ''],
    ['of them found in PostgreSQL', fmtNum(r.accounting.found), 'all'],
    ['lost', fmtNum(r.accounting.lost), '0'],
  ];
  if (rolling) {
    lines.push(
      r.passed
        ? '**Passed**: no acknowledged command was lost, every instance was restarted and served again, every room moved off a restarting instance was served again, and every game that started finished.'
        : `**Failed**: ${r.failures.join('; ')}.`,
      '',
      table(
        ['what', 'measured', 'goal'],
        [
          ...kept,
          [
            'instances restarted and served again through the proxy',
            `${rolling.restarts.filter((x) => !x.error).length} of ${r.instances.length}`,
            'all',
          ],
          ['rooms moved off a restarting instance (over all restarts)', fmtNum(rolling.moved), 'at least 1'],
          ['... served again', fmtNum(rolling.servedAgain), 'all'],
          [
            "... of them by another instance / by the restarted instance's new process",
            `${fmtNum(rolling.restarts.reduce((n, x) => n + x.servedElsewhere, 0))} / ${fmtNum(rolling.restarts.reduce((n, x) => n + x.servedByNewProcess, 0))}`,
            '',
          ],
          [
            'drain start to first successful command of a moved room: min / p50 / max',
            `${fmtMs(rolling.minMs)} / ${fmtMs(rolling.p50Ms)} / ${fmtMs(rolling.maxMs)} ms`,
            '',
          ],
          [
            'games started / finished (of rooms)',
            `${r.games.started} / ${r.games.finished} (of ${r.games.rooms})`,
            'every game that started finished',
          ],
        ],
        ['l', 'r', 'l'],
      ),
      '',
    );
  } else {
    const f = r.failover!;
    lines.push(
      r.passed
        ? '**Passed**: no acknowledged command was lost, and every moved room was served again.'
        : `**Failed**: ${r.failures.join('; ')}.`,
      '',
      table(
        ['what', 'measured', 'goal'],
        [
          ...kept,
          ['rooms live on the killed instance (moved)', fmtNum(f.moved.length), 'at least 1'],
          ['moved rooms served again by another instance', fmtNum(f.servedAgain), 'all'],
          [
            'kill to first successful command of a moved room: min / p50 / max',
            `${fmtMs(f.minMs)} / ${fmtMs(f.p50Ms)} / ${fmtMs(f.maxMs)} ms`,
            `within ${FAILOVER_GOAL_MS / 1000} s`,
          ],
          ['games started / finished (of rooms)', `${r.games.started} / ${r.games.finished} (of ${r.games.rooms})`, 'all'],
        ],
        ['l', 'r', 'l'],
      ),
      '',
    );
  }

  lines.push('## Accounting against PostgreSQL', '');
  lines.push(
    "After the last game, every command whose final reply to a bot was 2xx and whose 200 means a committed row (PROTOCOL.md section 5) was looked for in the cluster's database directly, by room, seat and command id: in its room's journal (`room_journal`: every command the rules accepted since the room's latest snapshot), among the replies that snapshot keeps for resends (`room_snapshots`), or, for a game that finished (its snapshot cut the journal), in the game's record (`finished_games`: an answer by its player and question, a start by the game it began). A command acknowledged twice (its reply lost with the socket, then replayed under the same id) counts once.",
    '',
  );
  lines.push(
    table(
      ['command', 'acknowledged', 'found', 'lost'],
      Object.entries(r.accounting.byType)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([type, t]) => [`\`${type}\``, fmtNum(t.acknowledged), fmtNum(t.found), fmtNum(t.acknowledged - t.found)]),
      ['l', 'r', 'r', 'r'],
    ),
    '',
  );
  if (r.accounting.lostCommands.length) {
    lines.push(
      'Lost (up to 50):',
      '',
      table(
        ['room', 'seat', 'command', 'id'],
        r.accounting.lostCommands.map((l) => [l.room, l.seat, l.type, l.id]),
      ),
      '',
    );
  }

  lines.push('## Retries', '');
  lines.push(
    'A seat whose socket closes with anything but a final code (4001, 4003, 4004) opens another through the proxy with the token it has, backing off from 100 ms (doubling, capped at 2 s, with jitter); the proxy routes it by `room=CODE`. A command that got no reply (its socket closed under it, or it timed out) or a 503 is sent again under the **same id**: the server replays the original reply if it had committed it, and executes it afresh otherwise (section 3). HTTP calls are retried on 502/503/504 or no response, after `Retry-After` when the server sends one.',
    '',
    table(
      ['what', 'count'],
      [
        ['503 replies to commands (each retried under its id)', fmtNum(r.retries.refused503)],
        ['commands that got a 503 at least once', fmtNum(r.retries.commandsRefused503)],
        ['... of them succeeded on retry', fmtNum(r.retries.succeededAfter503)],
        ['commands resent under their id after a send got no reply', fmtNum(r.retries.resent)],
        ['... of them succeeded (a replay, or a first execution)', fmtNum(r.retries.succeededAfterResend)],
        [
          '... refused because the game had moved on meanwhile (a question closed by its deadline while the room was unserved): not a loss, nothing was acknowledged',
          fmtNum(r.retries.refusedMovedOn),
        ],
        ['commands that never got a final reply (their seat gave up)', fmtNum(r.retries.unresolved)],
        ['HTTP calls answered 502/503/504 or not at all (retried)', fmtNum(r.retries.httpRefused)],
      ],
      ['l', 'r'],
    ),
    '',
  );

  const reconnects = (counts: Readonly<Record<string, number>>) =>
    Object.keys(counts).length
      ? Object.entries(counts)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([why, n]) => `\`${why}\` ${fmtNum(n)}`)
          .join(', ')
      : 'none';
  if (rolling) {
    lines.push('## Each restart', '');
    lines.push(
      'In order. "Drain": SIGTERM to the old process\'s exit; "down": SIGTERM to the new process\'s first 200 on `/health`, asked of it directly (the cluster script\'s figures: the drain, the exit, the start). "Served again": the drain\'s start (the timestamp taken right before the `restart` line was written) to the first request the proxy sent the new process (`/health` through the proxy, which balances requests without a room code over the instances it holds up, and names the one that answered in `X-Served-By`): HAProxy takes it back after two good checks a second apart. "Rooms": the run\'s rooms the instance held live at the drain\'s start (its admin API); "moved": those asked anything after it (each had to be served again, by another instance or by the new process), timed from the drain\'s start to the first 2xx reply of any of their commands served so (a 2xx from the draining process itself, a command it had taken before the drain, is not a return); "ended meanwhile": rooms with nothing more to ask (their game over, their seats gone).',
      '',
      table(
        [
          'instance',
          'pid old -> new',
          'drain, ms',
          'down, ms',
          'served again, ms',
          'rooms',
          'moved',
          'ended meanwhile',
          'moved rooms served again (elsewhere / new process)',
          'unserved min / p50 / max, ms',
        ],
        rolling.restarts.map((x) => [
          x.instance,
          `${x.oldPid} -> ${x.newPid ?? '**none**'}`,
          fmtMs(x.stoppedMs),
          fmtMs(x.downMs),
          x.servingAgainMs === undefined ? `**${x.error ?? 'not served again'}**` : fmtMs(x.servingAgainMs),
          fmtNum(x.rooms),
          fmtNum(x.moved.length),
          fmtNum(x.endedMeanwhile.length),
          `${fmtNum(x.servedAgain)} (${x.servedElsewhere} / ${x.servedByNewProcess})${x.notServedAgain.length ? ` (**not: ${x.notServedAgain.join(', ')}**)` : ''}`,
          x.moved.length ? `${fmtMs(x.minMs)} / ${fmtMs(x.p50Ms)} / ${fmtMs(x.maxMs)}` : '',
        ]),
        ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
      ),
      '',
      "Per moved room, from its instance's drain start: the first socket accepted by another instance or the new process, the first `room.state` on one, the first 2xx reply, and the first committed write (a durable command's 200).",
      '',
      table(
        [
          'restart of',
          'room',
          'served by',
          'socket accepted, ms',
          'back in (room.state), ms',
          'first 2xx command, ms',
          'first committed write, ms',
        ],
        rolling.restarts.flatMap((x) =>
          [...x.moved]
            .sort((a, b) => (a.firstOkMs ?? Infinity) - (b.firstOkMs ?? Infinity))
            .map((m) => [
              x.instance,
              m.code,
              m.servedBy === undefined ? '**not served again**' : m.servedBy === x.instance ? `${m.servedBy} (new process)` : m.servedBy,
              fmtMs(m.proxyMovedMs),
              fmtMs(m.resumedMs),
              fmtMs(m.firstOkMs),
              fmtMs(m.firstCommitMs),
            ]),
        ),
        ['l', 'l', 'l', 'r', 'r', 'r', 'r'],
      ),
      '',
      ...(rolling.restarts.some((x) => x.servedByNewProcess > 0)
        ? [
            "A room \"served by\" its own instance's new process did not move: the restart was over before the proxy had marked the instance down (two failed checks a second apart), so the seats' reconnects kept going to it, were refused meanwhile (`upgrade 502`/`503`: nothing listening, or the draining process) and retried until the new process took the room back. Its time unserved is then about the restart's.",
            '',
          ]
        : []),
      `The seats' failed reconnects after the first drain began, by how they failed: ${reconnects(rolling.failedReconnects)} (\`upgrade 503\`: the proxy had no instance to give it, or the draining one refused it; \`close 1012\`: accepted, but the room was still another instance's; \`close 1001\`: the instance it reached began its drain).`,
      '',
    );
  } else {
    const f = r.failover!;
    lines.push('## Failover per moved room', '');
    lines.push(
      `Times from the kill (the timestamp taken right before \`process.kill\`) to: the first \`room.state\` on a socket another instance accepted (the proxy's \`X-Served-By\` on the upgrade), the first 2xx reply of any of the room's commands served by another instance (each seat pings as soon as it is back, so this is not held back by a bot's pause), and the first committed write (a durable command's 200). The lease is LEASE_SECONDS (default 6 s) from its last renewal; the proxy drops a dead instance after two failed checks a second apart.`,
      '',
    );
    lines.push(
      table(
        [
          'room',
          'served by',
          'proxy routes elsewhere, ms',
          'back in (room.state), ms',
          'first 2xx command, ms',
          'first committed write, ms',
        ],
        [...f.moved]
          .sort((a, b) => (a.firstOkMs ?? Infinity) - (b.firstOkMs ?? Infinity))
          .map((m) => [
            m.code,
            m.servedBy ?? '**not served again**',
            fmtMs(m.proxyMovedMs),
            fmtMs(m.resumedMs),
            fmtMs(m.firstOkMs),
            fmtMs(m.firstCommitMs),
          ]),
        ['l', 'l', 'r', 'r', 'r', 'r'],
      ),
      '',
      '"Proxy routes elsewhere": the first socket of the room that another instance accepted (HAProxy had marked the dead one down). Until the dead instance\'s lease ran out, such a socket was closed with 1012 before its first frame (the room was still held), and the seat tried again. The seats\' failed reconnects after the kill, by how they failed: ' +
        reconnects(f.failedReconnects) +
        ' (`upgrade 503`: the proxy still tried the dead instance; `close 1012`: accepted, the room not yet free).',
      '',
    );
  }

  lines.push('## Per instance', '');
  lines.push(
    rolling
      ? "From the bots' records: the run's rooms each instance held live at its own restart (its admin API, asked directly) and those its new process served (a reply on one of its sockets once it was back), and the `room.answer` replies it acknowledged with their client latency (send to reply, ms) sent before and after its own drain began. p99 is left empty when n <= 11."
      : "From the bots' records: the run's rooms each instance held live at the kill (its admin API, asked directly) and those it served after (a reply on one of its sockets), and the `room.answer` replies it acknowledged with their client latency (send to reply, ms) before and after the kill. p99 is left empty when n <= 11.",
    '',
    table(
      rolling
        ? [
            'instance',
            'rooms at its restart',
            'rooms after (new process)',
            'answers before',
            'p50 before',
            'p99 before',
            'answers after',
            'p50 after',
            'p99 after',
          ]
        : [
            'instance',
            'rooms at the kill',
            'rooms after',
            'answers before',
            'p50 before',
            'p99 before',
            'answers after',
            'p50 after',
            'p99 after',
          ],
      r.perInstance.map((i) => [
        i.killed ? `${i.instance} (killed)` : rolling && !i.restarted ? `${i.instance} (not restarted)` : i.instance,
        fmtNum(i.roomsAtKill),
        fmtNum(i.roomsAfter),
        fmtNum(i.answersBefore),
        fmtMs(i.p50Before),
        fmtMs(i.p99Before),
        fmtNum(i.answersAfter),
        fmtMs(i.p50After),
        fmtMs(i.p99After),
      ]),
      ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
    '',
  );

  lines.push('## Games', '');
  lines.push(
    `${r.games.rooms} room(s): ${r.games.started} game(s) started, ${r.games.finished} finished${rolling ? ` (${r.games.started - r.games.finished > 0 ? `**${r.games.started - r.games.finished} dropped**` : 'none dropped'})` : ''}, ${r.games.failed} room(s) failed.`,
    '',
  );
  if (r.games.errors.length) lines.push(...r.games.errors.slice(0, 30).map((e) => `- ${e}`), '');
  lines.push(
    '## Files',
    '',
    `\`${p.recordsFile}\`: one line per command, HTTP call and socket connect (tagged with room, seat and \`servedBy\`); \`summary.json\`: every figure above; \`instance-*.log\`, \`haproxy.log\`: the cluster's own logs.`,
    '',
    rawFilesNote(p.command),
    '',
  );
  return lines.join('\n');
}
