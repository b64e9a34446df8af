/**
 * Small SVG plots written by hand: line plots (with linear or log axes) and histograms, with labelled
 * axes and ticks. They are enough for a report, and they draw nothing that the numbers do not say.
 */

export interface AxisSpec {
  readonly label: string;
  readonly log?: boolean;
  readonly min?: number;
  readonly max?: number;
  /** Tick positions. They are chosen automatically when absent. */
  readonly ticks?: readonly number[];
  /** Whether the axis shows counts, which puts ticks only at whole numbers. */
  readonly integer?: boolean;
}

export interface LineSeries {
  readonly name: string;
  readonly points: readonly (readonly [number, number])[];
  readonly color?: string;
  readonly dashed?: boolean;
  /** Draw as a step function (for an empirical CDF). */
  readonly step?: boolean;
  readonly markers?: boolean;
}

export interface RefLine {
  readonly at: number;
  readonly label: string;
  readonly color?: string;
}

export interface LinePlotSpec {
  readonly title: string;
  readonly subtitle?: string;
  readonly width?: number;
  readonly height?: number;
  readonly x: AxisSpec;
  readonly y: AxisSpec;
  readonly series: readonly LineSeries[];
  readonly hLines?: readonly RefLine[];
  readonly vLines?: readonly RefLine[];
}

export const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b'];

const MARGIN = { left: 70, right: 20, top: 64, bottom: 52 };

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Formats a readable number: 0.25, 3.5, 12, 1,250. A form like 2.5k is avoided on purpose, to keep values exact. */
export function formatTick(v: number): string {
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1000) return Math.round(v).toLocaleString('en-US');
  if (a >= 10) return String(Number(v.toFixed(1)));
  if (a >= 1) return String(Number(v.toFixed(2)));
  return String(Number(v.toPrecision(2)));
}

/** Returns about `target` ticks at 1, 2 or 5 times a power of ten, covering [min, max]. */
export function linearTicks(min: number, max: number, target = 6): number[] {
  if (!(max > min)) return [min];
  const raw = (max - min) / target;
  const pow = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map((m) => m * pow).find((s) => (max - min) / s <= target) ?? 10 * pow;
  const ticks: number[] = [];
  for (let v = Math.ceil(min / step - 1e-9) * step; v <= max + step * 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

/** Returns the powers of ten in [min, max], with 2 and 5 between them when the range spans few decades. */
export function logTicks(min: number, max: number): number[] {
  const lo = Math.floor(Math.log10(min));
  const hi = Math.ceil(Math.log10(max));
  const mults = hi - lo <= 3 ? [1, 2, 5] : [1];
  const ticks: number[] = [];
  for (let e = lo; e <= hi; e++)
    for (const m of mults) {
      const v = Number((m * Math.pow(10, e)).toPrecision(12));
      if (v >= min * (1 - 1e-9) && v <= max * (1 + 1e-9)) ticks.push(v);
    }
  return ticks;
}

interface Scale {
  readonly min: number;
  readonly max: number;
  readonly ticks: readonly number[];
  at(v: number): number;
}

function scale(axis: AxisSpec, values: readonly number[], from: number, to: number): Scale {
  const finite = values.filter((v) => Number.isFinite(v) && (!axis.log || v > 0));
  let min = axis.min ?? (finite.length ? Math.min(...finite) : axis.log ? 1 : 0);
  let max = axis.max ?? (finite.length ? Math.max(...finite) : min + 1);
  if (axis.log) {
    if (axis.min === undefined) min = Math.pow(10, Math.floor(Math.log10(min) * 4) / 4);
    if (axis.max === undefined) max = Math.pow(10, Math.ceil(Math.log10(max) * 4) / 4);
    if (!(max > min)) max = min * 10;
    const ticks = axis.ticks ?? logTicks(min, max);
    const l0 = Math.log10(min);
    const l1 = Math.log10(max);
    return { min, max, ticks, at: (v) => from + ((Math.log10(Math.max(v, min * 1e-3)) - l0) / (l1 - l0)) * (to - from) };
  }
  if (axis.min === undefined && min > 0 && min < max * 0.5) min = 0;
  if (!(max > min)) max = min + 1;
  const pick = (a: number, b: number) => {
    const t = linearTicks(a, b);
    if (!axis.integer) return t;
    const whole = t.filter((v) => Number.isInteger(v));
    return whole.length >= 2 ? whole : [Math.floor(a), Math.ceil(b)];
  };
  // An axis chosen automatically runs from tick to tick.
  const auto = pick(min, max);
  const step = auto.length > 1 ? auto[1] - auto[0] : 0;
  if (step > 0 && axis.min === undefined) min = Math.floor(min / step + 1e-9) * step;
  if (step > 0 && axis.max === undefined) max = Math.ceil(max / step - 1e-9) * step;
  const ticks = axis.ticks ?? pick(min, max);
  return { min, max, ticks, at: (v) => from + ((v - min) / (max - min)) * (to - from) };
}

function frame(width: number, height: number, title: string, subtitle: string | undefined, body: string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${MARGIN.left}" y="20" font-size="15" font-weight="bold">${escapeXml(title)}</text>`,
    subtitle ? `<text x="${MARGIN.left}" y="37" fill="#555">${escapeXml(subtitle)}</text>` : '',
    ...body,
    '</svg>',
  ].join('\n');
}

function axes(xs: Scale, ys: Scale, x: AxisSpec, y: AxisSpec, width: number, height: number): string[] {
  const left = MARGIN.left;
  const right = width - MARGIN.right;
  const top = MARGIN.top;
  const bottom = height - MARGIN.bottom;
  const out: string[] = [];
  for (const t of ys.ticks) {
    const py = ys.at(t);
    if (py < top - 0.5 || py > bottom + 0.5) continue;
    out.push(`<line x1="${left}" x2="${right}" y1="${r(py)}" y2="${r(py)}" stroke="#e5e5e5"/>`);
    out.push(`<text x="${left - 6}" y="${r(py + 4)}" text-anchor="end">${formatTick(t)}</text>`);
  }
  const visible = xs.ticks.map((t) => ({ t, px: xs.at(t), text: formatTick(t) })).filter((k) => k.px >= left - 0.5 && k.px <= right + 0.5);
  // When labels would run into each other, all of them are turned rather than some dropped.
  const crowded = visible.some((k, i) => i > 0 && k.px - visible[i - 1].px < ((k.text.length + visible[i - 1].text.length) * 7) / 2 + 4);
  for (const { px, text } of visible) {
    out.push(`<line x1="${r(px)}" x2="${r(px)}" y1="${top}" y2="${bottom}" stroke="#f0f0f0"/>`);
    out.push(`<line x1="${r(px)}" x2="${r(px)}" y1="${bottom}" y2="${bottom + 5}" stroke="#333"/>`);
    out.push(
      crowded
        ? `<text transform="translate(${r(px + 4)} ${bottom + 12}) rotate(-35)" text-anchor="end" font-size="11">${text}</text>`
        : `<text x="${r(px)}" y="${bottom + 18}" text-anchor="middle">${text}</text>`,
    );
  }
  out.push(`<line x1="${left}" x2="${right}" y1="${bottom}" y2="${bottom}" stroke="#333"/>`);
  out.push(`<line x1="${left}" x2="${left}" y1="${top}" y2="${bottom}" stroke="#333"/>`);
  out.push(
    `<text x="${(left + right) / 2}" y="${height - 12}" text-anchor="middle">${escapeXml(x.label + (x.log ? ' (log scale)' : ''))}</text>`,
  );
  out.push(
    `<text transform="translate(16 ${(top + bottom) / 2}) rotate(-90)" text-anchor="middle">${escapeXml(y.label + (y.log ? ' (log scale)' : ''))}</text>`,
  );
  return out;
}

function r(v: number): string {
  return String(Math.round(v * 10) / 10);
}

/** Draws lines over linear or log axes, with optional reference lines and a legend. */
export function linePlot(spec: LinePlotSpec): string {
  const width = spec.width ?? 760;
  const height = spec.height ?? 380;
  const xs = scale(
    spec.x,
    [...spec.series.flatMap((s) => s.points.map((p) => p[0])), ...(spec.vLines ?? []).map((v) => v.at)],
    MARGIN.left,
    width - MARGIN.right,
  );
  const ys = scale(
    spec.y,
    [...spec.series.flatMap((s) => s.points.map((p) => p[1])), ...(spec.hLines ?? []).map((h) => h.at)],
    height - MARGIN.bottom,
    MARGIN.top,
  );
  const body = axes(xs, ys, spec.x, spec.y, width, height);
  const clipId = `clip${Math.random().toString(36).slice(2, 8)}`;
  body.push(
    `<clipPath id="${clipId}"><rect x="${MARGIN.left}" y="${MARGIN.top}" width="${width - MARGIN.left - MARGIN.right}" height="${height - MARGIN.top - MARGIN.bottom}"/></clipPath>`,
  );
  for (const h of spec.hLines ?? []) {
    const py = ys.at(h.at);
    if (py < MARGIN.top || py > height - MARGIN.bottom) continue;
    body.push(
      `<line x1="${MARGIN.left}" x2="${width - MARGIN.right}" y1="${r(py)}" y2="${r(py)}" stroke="${h.color ?? '#888'}" stroke-dasharray="6 4"/>`,
    );
    body.push(`<text x="${MARGIN.left + 6}" y="${r(py - 4)}" fill="${h.color ?? '#666'}">${escapeXml(h.label)}</text>`);
  }
  for (const v of spec.vLines ?? []) {
    const px = xs.at(v.at);
    body.push(
      `<line x1="${r(px)}" x2="${r(px)}" y1="${MARGIN.top}" y2="${height - MARGIN.bottom}" stroke="${v.color ?? '#888'}" stroke-dasharray="4 3"/>`,
    );
    body.push(`<text x="${r(px + 3)}" y="${MARGIN.top + 12}" fill="${v.color ?? '#666'}">${escapeXml(v.label)}</text>`);
  }
  spec.series.forEach((s, i) => {
    const color = s.color ?? PALETTE[i % PALETTE.length];
    const pts = s.points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y) && (!spec.y.log || y > 0) && (!spec.x.log || x > 0));
    if (!pts.length) return;
    const coords: string[] = [];
    pts.forEach(([x, y], k) => {
      if (s.step && k > 0) coords.push(`${r(xs.at(x))},${r(ys.at(pts[k - 1][1]))}`);
      coords.push(`${r(xs.at(x))},${r(ys.at(y))}`);
    });
    body.push(
      `<polyline clip-path="url(#${clipId})" fill="none" stroke="${color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 3"' : ''} points="${coords.join(' ')}"/>`,
    );
    if (s.markers ?? !s.step) {
      for (const [x, y] of pts) body.push(`<circle cx="${r(xs.at(x))}" cy="${r(ys.at(y))}" r="3" fill="${color}"/>`);
    }
  });
  // The legend goes in one row above the plot, so that it never hides a line.
  let legendX = MARGIN.left;
  spec.series.forEach((s, i) => {
    const color = s.color ?? PALETTE[i % PALETTE.length];
    const y = MARGIN.top - 6;
    body.push(
      `<line x1="${legendX}" x2="${legendX + 18}" y1="${y - 4}" y2="${y - 4}" stroke="${color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 3"' : ''}/>`,
    );
    body.push(`<text x="${legendX + 24}" y="${y}">${escapeXml(s.name)}</text>`);
    legendX += 24 + s.name.length * 6.5 + 18;
  });
  return frame(width, height, spec.title, spec.subtitle, body);
}

export interface HistogramSpec {
  readonly title: string;
  readonly subtitle?: string;
  readonly values: readonly number[];
  readonly xLabel: string;
  readonly markers?: readonly RefLine[];
  readonly width?: number;
  readonly height?: number;
  readonly bins?: number;
}

/**
 * Draws counts of values in equal-width bins. When a few values lie far out (beyond 3x the 99th
 * percentile), the axis stops there, and the subtitle says how many values were left out.
 */
export function histogramPlot(spec: HistogramSpec): string {
  const width = spec.width ?? 760;
  const height = spec.height ?? 340;
  const values = [...spec.values].filter(Number.isFinite).sort((a, b) => a - b);
  const n = values.length;
  const notes: string[] = [];
  if (spec.subtitle) notes.push(spec.subtitle);
  if (n === 0) return frame(width, height, spec.title, [...notes, 'no samples'].join(' · '), []);
  const p99 = values[Math.floor(0.99 * (n - 1))];
  let hi = values[n - 1];
  let lo = values[0];
  if (n >= 20 && hi > 3 * p99) {
    hi = 3 * p99;
    notes.push(`${values.filter((v) => v > hi).length} value(s) above ${formatTick(hi)} not drawn (max ${formatTick(values[n - 1])})`);
  }
  // Reference lines (a round trip, the server mean) must stay in view, because they are the point of
  // the plot.
  for (const m of spec.markers ?? []) {
    if (!Number.isFinite(m.at)) continue;
    lo = Math.min(lo, m.at);
    if (m.at <= 3 * (p99 || m.at)) hi = Math.max(hi, m.at);
  }
  if (lo > 0 && lo < hi * 0.3) lo = 0;
  if (!(hi > lo)) {
    hi = lo + Math.max(1, Math.abs(lo) * 0.1);
    lo = lo - Math.max(1, Math.abs(lo) * 0.1);
  }
  // Bins line up with the ticks. The axis runs from tick to tick, and each tick step is split evenly.
  const ticks = linearTicks(lo, hi);
  const step = ticks.length > 1 ? ticks[1] - ticks[0] : Math.max(1, Math.abs(lo));
  const lo2 = Math.floor(lo / step + 1e-9) * step;
  const hi2 = Math.max(lo2 + step, Math.ceil(hi / step - 1e-9) * step);
  const wanted = spec.bins ?? Math.max(10, Math.min(60, Math.round(2 * Math.sqrt(n))));
  const perStep = [1, 2, 4, 5, 10, 20, 25, 50].find((k) => ((hi2 - lo2) / step) * k >= wanted) ?? 50;
  const binWidth = step / perStep;
  const binCount = Math.max(1, Math.round((hi2 - lo2) / binWidth));
  const counts = new Array<number>(binCount).fill(0);
  for (const v of values) {
    if (v > hi) continue;
    counts[Math.max(0, Math.min(binCount - 1, Math.floor((v - lo2) / binWidth + 1e-9)))]++;
  }
  const xs = scale({ label: spec.xLabel, min: lo2, max: hi2 }, [], MARGIN.left, width - MARGIN.right);
  const top = Math.max(1, ...counts);
  const rawTicks = linearTicks(0, top);
  const yStep = Math.max(1, Math.round(rawTicks.length > 1 ? rawTicks[1] - rawTicks[0] : 1));
  const yMax = Math.ceil(top / yStep) * yStep;
  const yTicks: number[] = [];
  for (let t = 0; t <= yMax; t += yStep) yTicks.push(t);
  const ys = scale({ label: 'count', min: 0, max: yMax, ticks: yTicks }, counts, height - MARGIN.bottom, MARGIN.top);
  const body = axes(xs, ys, { label: `${spec.xLabel} (bins of ${Number(binWidth.toPrecision(3))})` }, { label: 'count' }, width, height);
  counts.forEach((c, i) => {
    if (!c) return;
    const x0 = xs.at(lo2 + i * binWidth);
    const x1 = xs.at(lo2 + (i + 1) * binWidth);
    const y = ys.at(c);
    body.push(
      `<rect x="${r(x0)}" y="${r(y)}" width="${r(Math.max(1, x1 - x0 - 1))}" height="${r(height - MARGIN.bottom - y)}" fill="#1f77b4" fill-opacity="0.75"/>`,
    );
  });
  (spec.markers ?? []).forEach((m, i) => {
    if (!Number.isFinite(m.at)) return;
    const px = xs.at(Math.min(m.at, hi2));
    const color = m.color ?? PALETTE[(i + 1) % PALETTE.length];
    body.push(
      `<line x1="${r(px)}" x2="${r(px)}" y1="${MARGIN.top}" y2="${height - MARGIN.bottom}" stroke="${color}" stroke-dasharray="5 3" stroke-width="1.5"/>`,
    );
    // Labels near the right edge go on the line's left.
    const leftSide = px > MARGIN.left + (width - MARGIN.left - MARGIN.right) * 0.65;
    body.push(
      `<text x="${r(leftSide ? px - 3 : px + 3)}" y="${MARGIN.top + 12 + i * 14}" fill="${color}"${leftSide ? ' text-anchor="end"' : ''}>${escapeXml(m.label)}</text>`,
    );
  });
  return frame(width, height, spec.title, notes.join(' · ') || undefined, body);
}

/** Stacks several plots one above the other in one SVG. */
export function stackPlots(svgs: readonly string[]): string {
  const sizes = svgs.map((s) => {
    const m = /width="(\d+)" height="(\d+)"/.exec(s);
    return { w: Number(m?.[1] ?? 760), h: Number(m?.[2] ?? 380) };
  });
  const width = Math.max(...sizes.map((s) => s.w));
  const height = sizes.reduce((t, s) => t + s.h, 0);
  let y = 0;
  const parts = svgs.map((s, i) => {
    const part = s.replace('<svg ', `<svg x="0" y="${y}" `);
    y += sizes[i].h;
    return part;
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    ...parts,
    '</svg>',
  ].join('\n');
}

/** Returns the points of an empirical CDF: x ascending, and y the share of values at or below x. */
export function ecdfPoints(values: readonly number[]): [number, number][] {
  const sorted = [...values].filter(Number.isFinite).sort((a, b) => a - b);
  if (!sorted.length) return [];
  return [[sorted[0], 0], ...sorted.map((v, i): [number, number] => [v, (i + 1) / sorted.length])];
}
