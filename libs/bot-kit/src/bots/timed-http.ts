import { epochMs, RecordSink, RecordTags } from './command-record';

export interface TimedResponse<T> {
  readonly status: number | null;
  readonly body?: T;
  readonly ms: number;
  readonly error?: string;
  /** The answer's `Retry-After` in seconds, when it gave one (a refusal's "come back then"). */
  readonly retryAfter?: number;
}

/**
 * Makes one HTTP call, timed and recorded like a command (with a `type` such as `http POST
 * /api/rooms`). It never rejects: a network failure or a timeout comes back with status null.
 */
export async function timedHttp<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: { type: string; body?: unknown; headers?: Record<string, string>; timeoutMs?: number; record?: RecordSink; tags?: RecordTags },
): Promise<TimedResponse<T>> {
  const sentAt = epochMs();
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? 10_000;
  let result: TimedResponse<T>;
  let timedOut = false;
  try {
    const res = await fetch(baseUrl + path, {
      method,
      headers: { ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let body: T | undefined;
    try {
      body = text ? (JSON.parse(text) as T) : undefined;
    } catch {
      body = undefined;
    }
    const code = (body as { code?: string } | undefined)?.code;
    const retryAfter = retryAfterSeconds(res.headers.get('retry-after'));
    result = {
      status: res.status,
      body,
      ms: performance.now() - started,
      ...(res.status >= 300 && code ? { error: code } : {}),
      ...(retryAfter !== undefined ? { retryAfter } : {}),
    };
  } catch (err) {
    timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    result = {
      status: null,
      ms: performance.now() - started,
      error: timedOut ? 'timed out' : err instanceof Error ? err.message : String(err),
    };
  }
  options.record?.({
    type: options.type,
    sentAt,
    ms: result.ms,
    status: result.status,
    timedOut,
    ...(result.error ? { error: result.error } : {}),
    ...(result.retryAfter !== undefined ? { retryAfter: result.retryAfter } : {}),
    ...options.tags,
  });
  return result;
}

/** Reads a `Retry-After` given in seconds, as this server sends it. A date or anything else is left out. */
export function retryAfterSeconds(header: string | string[] | null | undefined): number | undefined {
  const text = Array.isArray(header) ? header[0] : header;
  if (text === null || text === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(text)) return undefined;
  return Number(text);
}
