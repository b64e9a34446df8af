/**
 * What `docker compose config` would refuse or what this stack relies on, read from the parsed
 * compose file where no compose plugin runs (deploy-config.e2e-spec.ts runs the plugin too when
 * it exists). One line per problem, naming the service.
 */
export interface ComposeFacts {
  /** Whether the Dockerfile a service builds from has a HEALTHCHECK (then compose needs none). */
  readonly builtImageHasHealthcheck: boolean;
}

const CONDITIONS = new Set(['service_started', 'service_healthy', 'service_completed_successfully']);
const DURATION = /^(\d+(\.\d+)?(us|ms|s|m|h))+$/;
const HEALTHCHECK_KEYS = new Set(['test', 'interval', 'timeout', 'retries', 'start_period', 'start_interval', 'disable']);

export function composeProblems(doc: unknown, facts: ComposeFacts): string[] {
  const problems: string[] = [];
  const services = (doc as { services?: unknown })?.services;
  if (!isObject(services) || Object.keys(services).length === 0) return ['no services'];
  for (const [name, raw] of Object.entries(services)) {
    if (!isObject(raw)) {
      problems.push(`${name}: not a mapping`);
      continue;
    }
    const s = raw as Record<string, unknown>;
    if (typeof s.image !== 'string' && s.build === undefined) problems.push(`${name}: neither an image nor a build`);
    problems.push(...healthcheckProblems(name, s, facts));
    for (const port of asList(s.ports)) {
      if (typeof port !== 'string') problems.push(`${name}: port ${JSON.stringify(port)} is not a string: quote it`);
    }
    problems.push(...dependsOnProblems(name, s.depends_on, services, facts));
  }
  return problems;
}

function healthcheckProblems(name: string, s: Record<string, unknown>, facts: ComposeFacts): string[] {
  const h = s.healthcheck;
  if (h === undefined) {
    return s.build !== undefined && facts.builtImageHasHealthcheck ? [] : [`${name}: no healthcheck`];
  }
  if (!isObject(h)) return [`${name}: healthcheck is not a mapping`];
  const hc = h as Record<string, unknown>;
  const problems = Object.keys(hc)
    .filter((k) => !HEALTHCHECK_KEYS.has(k))
    .map((k) => `${name}: healthcheck has an unknown key ${k}`);
  if (hc.disable === true) problems.push(`${name}: healthcheck disabled`);
  const test = hc.test;
  const okTest =
    (typeof test === 'string' && test.trim() !== '') ||
    (Array.isArray(test) &&
      test.every((t) => typeof t === 'string') &&
      ((test[0] === 'CMD' && test.length > 1) || (test[0] === 'CMD-SHELL' && test.length === 2)));
  if (!okTest) problems.push(`${name}: healthcheck test must be a string, ["CMD", ...] or ["CMD-SHELL", "..."]`);
  for (const key of ['interval', 'timeout', 'start_period', 'start_interval'] as const) {
    if (hc[key] !== undefined && !(typeof hc[key] === 'string' && DURATION.test(hc[key] as string)))
      problems.push(`${name}: healthcheck ${key} ${JSON.stringify(hc[key])} is not a duration`);
  }
  if (hc.retries !== undefined && !(Number.isInteger(hc.retries) && (hc.retries as number) > 0))
    problems.push(`${name}: healthcheck retries must be a positive integer`);
  return problems;
}

function hasHealthcheck(s: unknown, facts: ComposeFacts): boolean {
  if (!isObject(s)) return false;
  return isObject(s.healthcheck) ? s.healthcheck.disable !== true : s.build !== undefined && facts.builtImageHasHealthcheck;
}

function dependsOnProblems(name: string, dependsOn: unknown, services: Record<string, unknown>, facts: ComposeFacts): string[] {
  if (dependsOn === undefined) return [];
  const entries: [string, unknown][] = Array.isArray(dependsOn)
    ? dependsOn.map((d) => [String(d), undefined])
    : isObject(dependsOn)
      ? Object.entries(dependsOn)
      : [];
  if (entries.length === 0) return [`${name}: depends_on is neither a list nor a mapping`];
  const problems: string[] = [];
  for (const [other, spec] of entries) {
    if (!(other in services)) problems.push(`${name}: depends on ${other}, which is not a service`);
    if (other === name) problems.push(`${name}: depends on itself`);
    if (spec === undefined) continue;
    const condition = isObject(spec) ? (spec as { condition?: unknown }).condition : undefined;
    if (!CONDITIONS.has(condition as string))
      problems.push(`${name}: depends on ${other} with condition ${JSON.stringify(condition)}, not one of ${[...CONDITIONS].join(', ')}`);
    else if (condition === 'service_healthy' && other in services && !hasHealthcheck(services[other], facts))
      problems.push(`${name}: waits for ${other} to be healthy, which has no healthcheck`);
  }
  return problems;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function asList(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}
