import type { EventFrame, ReplyFrame } from '../wire.types.js';
import { type EventCodes, type GameCodes, KEY_LETTERS, type V3Codes } from './code-table.js';
import { isObject, stickyValue, WireMemory } from './wire-memory.js';

/** The compact profiles this codec speaks. */
export type CompactProfile = 'compact-v1' | 'compact-v2' | 'compact-v3';

/** A frame a compact decoder could not read, because the stream is not what the profile says it is. */
export class WireDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WireDecodeError';
  }
}

/**
 * Encodes one event for one socket, as its compact profile sends it. Returns null when the profile
 * does not send it (a frame that changes nothing for this viewer, or a state frame identical to
 * the last). It does not touch `memory`: the caller remembers the data once the frame is sent.
 * Every encoding is checked by decoding it, and one that would not decode to exactly the JSON data
 * is sent plain.
 */
export function encodeCompactEvent(profile: CompactProfile, memory: WireMemory, type: string, data: unknown): string | null {
  const game = memory.see(type);
  const codes = game?.events[type];
  if (codes?.noopWhenNull && isObject(data) && data[codes.noopWhenNull] === null) return null;
  if (game && type === game.stateEvent && memory.lastState !== undefined && memory.lastState === JSON.stringify(data)) return null;
  let body = isObject(data) ? omitKnown(memory, type, codes, data) : data;
  const v3 = memory.v3 ? codes?.v3 : undefined;
  if (v3?.relativeTo && isObject(body)) body = relativeOut(v3.relativeTo, body);
  const coded = profile !== 'compact-v1';
  if (coded && game) body = codeValue(game, memory, body);
  const text = coded ? v2Event(game, type, bareOut(game, v3, body), false) : v1Event(type, body, false);
  if (!decodesTo(() => decodeCompactEvent(profile, memory, JSON.parse(text)).data, data)) {
    return coded ? v2Event(game, type, data, true) : v1Event(type, data, true);
  }
  return text;
}

/** Encodes a reply as the profile sends it. `id` and `status` always go, under those names. */
export function encodeCompactReply(profile: CompactProfile, memory: WireMemory, reply: ReplyFrame): string {
  if (profile === 'compact-v1' || !memory.game) return JSON.stringify(reply);
  const head = { id: reply.id, status: reply.status };
  if (reply.error) return JSON.stringify({ ...head, error: reply.error });
  const data = reply.data ?? {};
  if (isObject(data) && Object.keys(data).length === 0) return JSON.stringify(head);
  const text = JSON.stringify({ ...head, d: codeValue(memory.game, memory, data) });
  if (!decodesTo(() => decodeCompactFrame(profile, memory, JSON.parse(text)), { type: 'reply', ...head, data }))
    return JSON.stringify({ ...head, data });
  return text;
}

/** Turns one parsed compact frame back into the JSON frame (without `seq`, which the caller numbers). */
export function decodeCompactFrame(profile: CompactProfile, memory: WireMemory, frame: unknown): ReplyFrame | Omit<EventFrame, 'seq'> {
  if (profile === 'compact-v1') {
    if (!isObject(frame) || typeof frame.type !== 'string') throw new WireDecodeError('a compact-v1 frame is an object with a type');
    if (frame.type === 'reply') return frame as unknown as ReplyFrame;
    return decodeCompactEvent(profile, memory, frame);
  }
  if (Array.isArray(frame)) return decodeCompactEvent(profile, memory, frame);
  if (!isObject(frame) || !('status' in frame))
    throw new WireDecodeError('a compact-v2 or v3 frame is an array (an event) or an object with a status (a reply)');
  const head = { type: 'reply' as const, id: frame.id as string | null, status: frame.status as number };
  if ('error' in frame) return { ...head, error: frame.error as ReplyFrame['error'] };
  if ('data' in frame) return { ...head, data: frame.data };
  return { ...head, data: 'd' in frame && memory.game ? decodeValue(memory.game, memory, frame.d) : {} };
}

function decodeCompactEvent(profile: CompactProfile, memory: WireMemory, frame: unknown): Omit<EventFrame, 'seq'> {
  let type: string;
  let body: unknown;
  let plain: boolean;
  if (profile === 'compact-v1') {
    const f = frame as Record<string, unknown>;
    type = f.type as string;
    body = 'data' in f ? f.data : {};
    plain = f.plain === true;
  } else {
    const f = frame as unknown[];
    type = typeof f[0] === 'string' ? f[0] : typeOfCode(memory.game, f[0]);
    memory.see(type);
    body = f.length > 1 ? f[1] : {};
    plain = f[2] === 0;
    const v3 = memory.v3 ? memory.game?.events[type]?.v3 : undefined;
    if (!plain && memory.game) body = decodeValue(memory.game, memory, bareIn(memory.game, v3, body));
    if (!plain && v3?.relativeTo && isObject(body)) body = relativeIn(v3.relativeTo, body);
  }
  if (typeof type !== 'string') throw new WireDecodeError('a compact event needs a type');
  const game = memory.see(type);
  const data = plain || !isObject(body) ? body : restoreKnown(memory, type, game?.events[type], body);
  return { type, data };
}

function v1Event(type: string, body: unknown, plain: boolean): string {
  const empty = !plain && isObject(body) && Object.keys(body).length === 0;
  return JSON.stringify(empty ? { type } : plain ? { type, data: body, plain: true } : { type, data: body });
}

function v2Event(game: GameCodes | undefined, type: string, body: unknown, plain: boolean): string {
  // The state frame goes by its name, because it is what tells a fresh decoder which game's codes follow.
  const code = game && type !== game.stateEvent ? (game.events[type]?.code ?? type) : type;
  if (plain) return JSON.stringify([code, body, 0]);
  return JSON.stringify(isObject(body) && Object.keys(body).length === 0 ? [code] : [code, body]);
}

// compact-v3 sends a number field as its difference from another field of the same frame, when both are sent.
function relativeOut(relativeTo: Readonly<Record<string, string>>, body: Record<string, unknown>): Record<string, unknown> {
  let out = body;
  for (const [field, base] of Object.entries(relativeTo)) {
    const value = out[field];
    const from = out[base];
    if (typeof value !== 'number' || typeof from !== 'number') continue;
    if (out === body) out = { ...body };
    out[field] = value - from;
  }
  return out;
}

function relativeIn(relativeTo: Readonly<Record<string, string>>, body: Record<string, unknown>): Record<string, unknown> {
  for (const [field, base] of Object.entries(relativeTo)) {
    const value = body[field];
    const from = body[base];
    if (typeof value === 'number' && typeof from === 'number') body[field] = value + from;
  }
  return body;
}

// compact-v3 sends data that has one field as that field's (coded) value, when the value is not an object.
function bareOut(game: GameCodes | undefined, v3: V3Codes | undefined, coded: unknown): unknown {
  if (!game || !v3?.bare || !isObject(coded)) return coded;
  const keys = Object.keys(coded);
  const key = keyCode(game, v3.bare);
  return keys.length === 1 && keys[0] === key && !isObject(coded[key]) ? coded[key] : coded;
}

function bareIn(game: GameCodes, v3: V3Codes | undefined, body: unknown): unknown {
  return v3?.bare && !isObject(body) ? { [keyCode(game, v3.bare)]: body } : body;
}

function typeOfCode(game: GameCodes | undefined, code: unknown): string {
  for (const [type, codes] of Object.entries(game?.events ?? {})) if (codes.code === code) return type;
  throw new WireDecodeError(`unknown event code ${String(code)}`);
}

// compact-v1 leaves out sticky fields equal to their last value on this socket, and fields equal to their defaults.
function omitKnown(
  memory: WireMemory,
  type: string,
  codes: EventCodes | undefined,
  data: Record<string, unknown>,
): Record<string, unknown> {
  if (!codes) return data;
  let out = data;
  for (const field of memory.stickyFields(type)) {
    const value = stickyValue(out, field);
    if (value === undefined || memory.stickyJson(type, field) !== JSON.stringify(value)) continue;
    if (out === data) out = { ...data };
    const [list, column] = field.split('[].');
    if (column === undefined) delete out[field];
    else out[list] = (out[list] as Record<string, unknown>[]).map(({ [column]: _, ...rest }) => rest);
  }
  for (const [path, value] of Object.entries(codes.defaults ?? {})) out = omitAt(out, parsePath(path), value) as Record<string, unknown>;
  return out;
}

function restoreKnown(
  memory: WireMemory,
  type: string,
  codes: EventCodes | undefined,
  body: Record<string, unknown>,
): Record<string, unknown> {
  if (!codes) return body;
  const out = { ...body };
  for (const field of memory.stickyFields(type)) {
    const kept = memory.stickyJson(type, field);
    if (kept === undefined) continue;
    const [list, column] = field.split('[].');
    if (column === undefined) {
      if (!(field in out)) out[field] = JSON.parse(kept);
      continue;
    }
    const values = JSON.parse(kept) as unknown[];
    const entries = out[list];
    if (!Array.isArray(entries) || entries.length !== values.length || entries.some((e) => !isObject(e) || column in e)) continue;
    out[list] = entries.map((e, i) => ({ [column]: values[i], ...(e as Record<string, unknown>) }));
  }
  for (const [path, value] of Object.entries(codes.defaults ?? {})) fillAt(out, parsePath(path), value);
  return out;
}

interface Step {
  readonly key: string;
  readonly each: boolean;
}

function parsePath(path: string): Step[] {
  return path.split('.').map((s) => (s.endsWith('[]') ? { key: s.slice(0, -2), each: true } : { key: s, each: false }));
}

/** Returns `value` without the default at `steps`, copying only what changes, because the data is shared. */
function omitAt(value: unknown, steps: readonly Step[], fallback: unknown): unknown {
  if (!isObject(value) || !(steps[0].key in value)) return value;
  const [step, ...rest] = steps;
  const child = value[step.key];
  if (rest.length === 0) {
    if (child !== fallback) return value;
    const copy = { ...value };
    delete copy[step.key];
    return copy;
  }
  let next: unknown;
  if (step.each) {
    if (!Array.isArray(child)) return value;
    const mapped = child.map((el) => omitAt(el, rest, fallback));
    next = mapped.some((el, i) => el !== child[i]) ? mapped : child;
  } else {
    next = omitAt(child, rest, fallback);
  }
  return next === child ? value : { ...value, [step.key]: next };
}

/** Puts the default back where it was left out. It works on decoded data, which is the decoder's own to change. */
function fillAt(value: unknown, steps: readonly Step[], fallback: unknown): void {
  if (!isObject(value)) return;
  const [step, ...rest] = steps;
  if (rest.length === 0) {
    if (!(step.key in value)) value[step.key] = fallback;
    return;
  }
  const child = value[step.key];
  if (step.each) {
    if (Array.isArray(child)) for (const el of child) fillAt(el, rest, fallback);
  } else {
    fillAt(child, rest, fallback);
  }
}

// compact-v2 and v3 send keys as letters, and enum values and known ids as numbers, at any depth.
const keyNumbers = new WeakMap<GameCodes, Map<string, number>>();

function keyCode(game: GameCodes, key: string): string {
  let numbers = keyNumbers.get(game);
  if (!numbers) keyNumbers.set(game, (numbers = new Map(game.keys.map((k, i) => [k, i]))));
  const n = numbers.get(key);
  if (n !== undefined && n < KEY_LETTERS.length) return KEY_LETTERS[n];
  // A key that looks like a code is escaped, so that every key decodes to itself.
  return key.startsWith('~') || (key.length === 1 && KEY_LETTERS.includes(key)) ? `~${key}` : key;
}

function keyOfCode(game: GameCodes, code: string): string {
  if (code.startsWith('~')) return code.slice(1);
  if (code.length === 1) {
    const n = KEY_LETTERS.indexOf(code);
    if (n >= 0) {
      if (n >= game.keys.length) throw new WireDecodeError(`unknown key code ${code}`);
      return game.keys[n];
    }
  }
  return code;
}

function codeValue(game: GameCodes, memory: WireMemory, value: unknown, key?: string): unknown {
  if (Array.isArray(value)) return value.map((v) => codeValue(game, memory, v, key));
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value)) out[keyCode(game, k)] = codeValue(game, memory, value[k], k);
    return out;
  }
  if (typeof value === 'string' && key !== undefined) {
    const n = game.enums[key]?.indexOf(value) ?? -1;
    if (n >= 0) return n;
    if (game.ids.includes(key)) return memory.idNumber(value) ?? value;
  }
  return value;
}

function decodeValue(game: GameCodes, memory: WireMemory, value: unknown, key?: string): unknown {
  if (Array.isArray(value)) return value.map((v) => decodeValue(game, memory, v, key));
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    for (const code of Object.keys(value)) {
      const k = keyOfCode(game, code);
      out[k] = decodeValue(game, memory, value[code], k);
    }
    return out;
  }
  if (typeof value === 'number' && key !== undefined) {
    const values = game.enums[key];
    if (values) {
      if (values[value] === undefined) throw new WireDecodeError(`unknown ${key} code ${value}`);
      return values[value];
    }
    if (game.ids.includes(key)) {
      const id = memory.idAt(value);
      if (id === undefined) throw new WireDecodeError(`unknown id number ${value}`);
      return id;
    }
  }
  return value;
}

function decodesTo(decode: () => unknown, expected: unknown): boolean {
  try {
    return sameJson(decode(), expected);
  } catch (err) {
    if (err instanceof WireDecodeError) return false;
    throw err;
  }
}

/** Whether two values are the same JSON value, whatever the order of keys. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const keys = Object.keys(a).filter((k) => a[k] !== undefined);
    return keys.length === Object.keys(b).filter((k) => b[k] !== undefined).length && keys.every((k) => k in b && sameJson(a[k], b[k]));
  }
  return false;
}
