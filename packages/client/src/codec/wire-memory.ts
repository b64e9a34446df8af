import { type CodeTable, type GameCodes, gameOfStateEvent } from './code-table.js';
import type { CompactProfile } from './compact-codec.js';

/** A type's sticky fields in one profile, and where each one's last value is kept. */
interface StickyRules {
  readonly fields: readonly string[];
  /** For each field, its key in a socket's memory: the owning type (compact-v3 may name another type) and the field. */
  readonly slots: readonly string[];
}

// These rules are worked out once per section and profile, not per socket, because every socket of a game asks the same.
const stickyRules = new WeakMap<GameCodes, Map<string, StickyRules>>();
const v3StickyRules = new WeakMap<GameCodes, Map<string, StickyRules>>();
const NO_STICKY: StickyRules = { fields: [], slots: [] };

function rulesOf(game: GameCodes, type: string, v3: boolean): StickyRules {
  const cache = v3 ? v3StickyRules : stickyRules;
  let byType = cache.get(game);
  if (!byType) cache.set(game, (byType = new Map()));
  let rules = byType.get(type);
  if (!rules) {
    // compact-v3 adds its own sticky fields to v1's and v2's, and may keep one under another type.
    const codes = game.events[type];
    const fields = [...(codes?.sticky ?? []), ...((v3 && codes?.v3?.sticky) || [])];
    const owners = (v3 && codes?.v3?.stickyAs) || {};
    rules = { fields, slots: fields.map((f) => `${owners[f] ?? type}\u0000${f}`) };
    byType.set(type, rules);
  }
  return rules;
}

/**
 * What one socket's compact stream remembers, kept alike at both ends: the game its first state
 * frame announced, the last value of each sticky field, the last state frame, and (in compact-v2
 * and v3) the ids it was sent, numbered in order. Both ends update it from the JSON data of every
 * frame actually sent, after the frame. A new socket starts empty, so a reconnect starts clean.
 */
export class WireMemory {
  game: GameCodes | undefined;
  lastState: string | undefined;
  /** The last values of sticky fields, as JSON, by slot. One map serves every type (see `StickyRules`). */
  private readonly sticky = new Map<string, string>();
  private readonly idList: string[] = [];
  private readonly idNumbers = new Map<string, number>();

  readonly table: CodeTable;
  private readonly numbersIds: boolean;
  /** Set for compact-v3, where the table's `v3` rules apply. */
  readonly v3: boolean;

  constructor(table: CodeTable, profile: CompactProfile) {
    this.table = table;
    this.numbersIds = profile !== 'compact-v1';
    this.v3 = profile === 'compact-v3';
  }

  /** Call before a frame of `type` is encoded or decoded. The first state frame fixes the game. */
  see(type: string): GameCodes | undefined {
    this.game ??= gameOfStateEvent(this.table, type);
    return this.game;
  }

  /** The sticky fields of `type` in this socket's profile. */
  stickyFields(type: string): readonly string[] {
    return this.rules(type).fields;
  }

  stickyJson(type: string, field: string): string | undefined {
    const { fields, slots } = this.rules(type);
    const i = fields.indexOf(field);
    return i < 0 ? undefined : this.sticky.get(slots[i]);
  }

  idNumber(id: string): number | undefined {
    return this.idNumbers.get(id);
  }

  idAt(n: number): string | undefined {
    return this.idList[n];
  }

  /**
   * Everything the encoding of `data` as `type` depends on besides the data, so sockets that agree
   * here get the same bytes. Of the ids, only the numbers of those this frame carries count.
   */
  key(type: string, data: unknown): string {
    let values = '';
    for (const slot of this.rules(type).slots) values += `${this.sticky.get(slot) ?? ''}\u0001`;
    let ids = '';
    if (this.numbersIds && this.game) for (const id of idsIn(this.game, data)) ids += `${this.idNumbers.get(id) ?? ''},`;
    // A state frame identical to the last one is dropped, so the last one is part of what its bytes depend on.
    const state = type === this.game?.stateEvent ? (this.lastState ?? '') : '';
    return `${this.game?.kind ?? ''}\u0002${values}\u0002${ids}\u0002${state}`;
  }

  /** Call after a frame of `type` with this data was sent (or received). */
  remember(type: string, data: unknown): void {
    const game = this.game;
    if (!game || !isObject(data)) return;
    if (type === game.stateEvent) this.lastState = JSON.stringify(data);
    const { fields, slots } = this.rules(type);
    fields.forEach((field, i) => {
      const value = stickyValue(data, field);
      if (value !== undefined) this.sticky.set(slots[i], JSON.stringify(value));
    });
    if (this.numbersIds) this.learnIds(game, data);
  }

  private rules(type: string): StickyRules {
    return this.game ? rulesOf(this.game, type, this.v3) : NO_STICKY;
  }

  // A frame's new ids are numbered in sorted order, not in the order the frame carries them. Two
  // viewers whose frames carry the same ids (each with its own `you` first) then get the same
  // numbers, so their sockets keep sharing encodings.
  private learnIds(game: GameCodes, data: unknown): void {
    const fresh = idsIn(game, data).filter((id) => !this.idNumbers.has(id));
    for (const id of fresh.sort()) {
      if (this.idList.length >= this.table.maxIds) break;
      this.idNumbers.set(id, this.idList.length);
      this.idList.push(id);
    }
  }
}

// The ids a frame's data carries, each listed once, and found once per data object. A broadcast's
// sockets share its data, and otherwise each would walk it for its key and again for what it learns.
const idsByData = new WeakMap<GameCodes, WeakMap<object, readonly string[]>>();

function idsIn(game: GameCodes, data: unknown): readonly string[] {
  if (typeof data !== 'object' || data === null) return [];
  let byData = idsByData.get(game);
  if (!byData) idsByData.set(game, (byData = new WeakMap()));
  let ids = byData.get(data);
  if (!ids) {
    const found = new Set<string>();
    collectIds(game, data, undefined, found);
    byData.set(data, (ids = [...found]));
  }
  return ids;
}

function collectIds(game: GameCodes, value: unknown, key: string | undefined, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const v of value) collectIds(game, v, key, into);
  } else if (isObject(value)) {
    for (const k of Object.keys(value)) collectIds(game, value[k], k, into);
  } else if (typeof value === 'string' && key !== undefined && game.ids.includes(key)) {
    into.add(value);
  }
}

/**
 * A sticky field's value: a top-level field (`total`), or a column of a list (`scores[].playerId`,
 * meaning every entry's playerId, in order) when every entry has it.
 */
export function stickyValue(data: Record<string, unknown>, field: string): unknown {
  const column = field.split('[].');
  if (column.length === 1) return data[field];
  const list = data[column[0]];
  if (!Array.isArray(list) || !list.every((e) => isObject(e) && column[1] in e)) return undefined;
  return list.map((e) => (e as Record<string, unknown>)[column[1]]);
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
