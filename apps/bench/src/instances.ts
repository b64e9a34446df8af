import { MetricsSnapshot } from '@app/bot-kit';
import { fmtMs, fmtNum, table } from './report';
import { BenchRun } from './run';

interface Instance {
  readonly url: string;
  name?: string;
  before?: MetricsSnapshot;
  after?: MetricsSnapshot;
  error?: string;
}

/**
 * The server figures of each instance of a cluster (`--instance-urls`). The bench drives the proxy,
 * but reads every instance's /metrics directly before and after, because the proxy would hand each
 * scrape to any of them. An instance killed during the run shows as restarted or gone.
 */
export class InstanceFigures {
  private constructor(
    private readonly run: BenchRun,
    private readonly instances: Instance[],
  ) {}

  static async before(run: BenchRun, urls: readonly string[]): Promise<InstanceFigures> {
    const instances: Instance[] = urls.map((url) => ({ url }));
    await Promise.all(
      instances.map(async (i, n) => {
        i.name = await fetch(`${i.url}/health`, { signal: AbortSignal.timeout(5000) })
          .then((r) => r.json() as Promise<{ instance?: string }>)
          .then(
            (h) => h.instance,
            () => undefined,
          );
        i.before = await run.snapshot(`instance-${n + 1}-before`, i.url).catch((err) => ((i.error = String(err)), undefined));
      }),
    );
    return new InstanceFigures(run, instances);
  }

  async after(): Promise<void> {
    await Promise.all(
      this.instances.map(async (i, n) => {
        i.after = await this.run.snapshot(`instance-${n + 1}-after`, i.url).catch((err) => ((i.error = String(err)), undefined));
      }),
    );
  }

  section(): string {
    const out = ['## Per instance', ''];
    out.push(
      "Each instance's /metrics, read directly (not through the proxy) just before and just after the play: commands it handled, its `room.answer` exact mean, its statements, and the rooms it held at the end. An instance whose process changed (killed and restarted) or that stopped answering is named so, and its figures are left out.",
    );
    out.push('');
    const rows = this.instances.map((i) => {
      const name = i.name ?? '?';
      if (!i.before || !i.after) return [name, i.url, 'no snapshot', '', '', '', '', i.error ?? 'did not answer'];
      const { delta, refused } = BenchRun.delta(i.before, i.after);
      if (!delta) return [name, i.url, '', '', '', '', '', refused ?? ''];
      const commands = delta.histograms('game_command_duration_seconds').reduce((t, h) => t + h.count, 0);
      const [answers] = delta.histograms('game_command_duration_seconds', ['command']).filter((h) => h.labels.command === 'room.answer');
      const trips = delta.value('game_db_round_trips_total');
      const rooms = i.after.value('game_rooms_active');
      return [name, i.url, fmtNum(commands), fmtNum(answers?.count ?? 0), fmtMs(answers?.meanMs), fmtNum(trips), fmtNum(rooms), ''];
    });
    out.push(
      table(['instance', 'url', 'commands', 'answers', 'answer mean ms', 'round trips', 'rooms live at the end', 'note'], rows, [
        'l',
        'l',
        'r',
        'r',
        'r',
        'r',
        'r',
        'l',
      ]),
    );
    out.push('');
    return out.join('\n');
  }
}
