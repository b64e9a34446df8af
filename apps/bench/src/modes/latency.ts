import { GameReport, playTriviaRoom } from '@app/bot-kit';
import { Options } from '../cli';
import { clientRows, rttOf, serverMean } from '../report';
import { BenchRun, BotSettings, botSettings, log, roomBotOptions, seededRandom, TargetSettings } from '../run';
import { gamesReport } from './games-report';
import { InstanceFigures } from '../instances';
import { everyKindDeck, KindBytes } from '../kind-bytes';

/**
 * Plays games one after another, with one room live at a time. It measures the latency of each
 * command with nothing else going on, at the database distance of the run.
 */
export function latencyMode(o: Options, target: TargetSettings): (run: BenchRun, command: string) => Promise<void> {
  const bots = botSettings(o, { seats: 3, questions: 10, secondsPerQuestion: 20, revealSeconds: 1, pingSeconds: 15 });
  const gameCount = o.number('games', 5, 1, 1000);
  const title = o.string(
    'title',
    `Latency: ${gameCount} games of ${bots.seats} seats, ${bots.questions} questions, database ${target.url ? 'as found' : target.dbDelayMs ? `${target.dbDelayMs} ms away each way` : 'local (no delay)'}`,
  );
  const plots = !o.flag('no-plots');
  // By default, the rooms play a deck with every kind of question (section 13), in its order.
  // `--deck builtin` plays the built-in deck.
  const deck = o.string('deck', 'kinds');
  if (deck !== 'kinds' && deck !== 'builtin') throw new Error(`--deck must be kinds or builtin, not ${deck}`);
  o.assertAllUsed();
  return (run, command) => runLatency(run, command, { bots, gameCount, title, plots, kinds: deck === 'kinds' });
}

/** Makes a deck with every kind of question for the run's rooms, once, over the API, and returns its id. */
async function makeKindsDeck(baseUrl: string, questions: number): Promise<string> {
  const res = await fetch(`${baseUrl}/api/decks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(everyKindDeck(questions)),
  });
  if (res.status !== 201) throw new Error(`could not make the bench's deck of every kind: HTTP ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

async function runLatency(
  run: BenchRun,
  command: string,
  p: { bots: BotSettings; gameCount: number; title: string; plots: boolean; kinds: boolean },
): Promise<void> {
  const { bots, gameCount, title, plots, kinds } = p;

  await run.startServer();
  // The deck is made before the snapshot, so that the deck's write is not counted with the games.
  const deckId = kinds ? await makeKindsDeck(run.baseUrl, bots.questions) : undefined;
  const byKind = new KindBytes();
  const distances = await run.distances();
  const meter = run.usageMeter();
  const instances = run.target.instanceUrls.length ? await InstanceFigures.before(run, run.target.instanceUrls) : undefined;
  const before = await run.snapshot('before').catch(() => undefined);
  meter.start();
  const random = seededRandom(bots.seed);
  const games: GameReport[] = [];
  const roomErrors: string[] = [];
  for (let g = 1; g <= gameCount && !run.signal.aborted; g++) {
    log(`game ${g} of ${gameCount}`);
    run.setTag('game', g);
    const room = await playTriviaRoom({
      baseUrl: run.baseUrl,
      ...roomBotOptions(bots),
      record: run.record,
      random,
      signal: run.signal,
      ...(deckId
        ? {
            opening: { deckId, order: 'deck' },
            onFrame: (socket: string, f: Parameters<KindBytes['frame']>[1]) => byKind.frame(socket, f),
            onAnswer: (kind: string, status: number | null) => byKind.answer(kind, status),
          }
        : {}),
    });
    games.push(...room.games);
    if (room.error) {
      roomErrors.push(room.error);
      log(`game ${g} failed: ${room.error}`);
    }
  }
  run.setTag('game', undefined);
  const usage = meter.stop();
  const after = await run.snapshot('after').catch(() => undefined);
  await instances?.after();
  // Through a cluster's proxy, /metrics comes from whichever instance the proxy picks each time.
  const figures = instances
    ? { refused: 'a cluster behind a proxy: its figures are per instance (section "Per instance")' }
    : BenchRun.delta(before, after);
  const finishedAt = new Date();

  const { markdown, svgs } = gamesReport({
    run,
    title,
    command,
    intro: [
      `Run ${run.startedAt.toISOString()} to ${finishedAt.toISOString()}${run.signal.aborted ? ' (**interrupted**: partial results)' : ''}. Mode \`latency\`: ${gameCount} game(s) one after another, each in a fresh room of ${bots.seats} player seat(s) and a host, ${bots.questions} question(s) each, ${deckId ? 'from a deck that cycles through every kind of question (choice, truefalse, multi, poll, text), in its order' : 'from the built-in deck'}.`,
    ],
    distances,
    records: run.records,
    games,
    roomErrors,
    figures,
    usage,
    bots,
    load: 'One room live at a time: no concurrency between rooms, so nothing here says how the service behaves with many rooms (see the ladder).',
    plots,
    extraSections: [...(instances ? [instances.section()] : []), ...(deckId ? [byKind.section()] : [])],
  });
  for (const svg of svgs) run.writeFile(svg.name, svg.content);
  run.writeFile('report.md', markdown);
  const answers = clientRows(run.records).find((r) => r.type === 'room.answer');
  run.writeFile(
    'summary.json',
    JSON.stringify(
      {
        mode: 'latency',
        command,
        startedAt: run.startedAt,
        finishedAt,
        dbDelayMs: run.db?.delayMs ?? null,
        build: distances.health ? { version: distances.health.version, sha: distances.health.sha } : null,
        rttMs: rttOf(distances) ?? null,
        answer: { client: answers?.summary ?? null, serverMeanMs: serverMean(figures.delta, 'room.answer').meanMs ?? null },
        rematchSpreadMs: games.map((g) => g.rematch.replySpreadMs),
        bytesPerAnswerByKind: deckId ? byKind.rows() : null,
        timeouts: run.records.filter((r) => r.timedOut).length,
        serverRefused: figures.refused ?? null,
      },
      null,
      2,
    ),
  );
}
