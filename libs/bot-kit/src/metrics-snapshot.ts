/** One sample of the Prometheus text format. */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/**
 * A parsed /metrics page. It reads enough of the text format for the families this server
 * exposes, so that tests and the bench can take two snapshots and subtract them.
 */
export class MetricsSnapshot {
  readonly samples: Sample[] = [];
  readonly types = new Map<string, string>();

  constructor(text: string) {
    for (const line of text.split('\n')) {
      if (line.startsWith('# TYPE ')) {
        const [, , name, type] = line.split(' ');
        this.types.set(name, type);
        continue;
      }
      if (!line || line.startsWith('#')) continue;
      const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)/.exec(line);
      if (!m) continue;
      const labels: Record<string, string> = {};
      for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2].replace(/\\(.)/g, '$1');
      this.samples.push({ name: m[1], labels, value: Number(m[3]) });
    }
  }

  static async fetch(baseUrl: string): Promise<MetricsSnapshot> {
    const res = await fetch(`${baseUrl}/metrics`);
    if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
    return new MetricsSnapshot(await res.text());
  }

  /** The sum of the samples of `name` whose labels include `labels`. */
  value(name: string, labels: Record<string, string> = {}): number {
    return this.samples
      .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
      .reduce((sum, s) => sum + s.value, 0);
  }

  /** The label sets seen for `name`. */
  labelSets(name: string): Record<string, string>[] {
    return this.samples.filter((s) => s.name === name).map((s) => ({ ...s.labels }));
  }

  has(family: string): boolean {
    return this.types.has(family);
  }
}
