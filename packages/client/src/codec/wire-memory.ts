import { type CodeTable, type GameCodes, gameOfStateEvent, stickyFieldsOf } from './code-table.js';
import type { CompactProfile } from './compact-codec.js';

const stickyFields = new WeakMap<GameCodes, Map<string, readonly string[]>>();
const v3StickyFields = new WeakMap<GameCodes, Map<string, readonly string[]>>();

/**
 * What one socket's compact stream remembers, kept alike at both ends: the game its first state
 * frame announced, the last value of each sticky field, the last state frame, and (compact-v2
 * and v3) the ids it was sent, numbered in order. Both ends update it from the JSON data of every
 * frame actually sent, after the frame; a new socket starts empty, so a reconnect starts clean.
 */
export class WireMemory {
  game: GameCodes | undefined;
  lastState: string | undefined;
  /** Last values by the type that owns them (compact-v3 lets a type share another's), then field. */
  private readonly sticky = new Map<string, Map<string, string>>();
  private readonly idList: string[] = [];
  private readonly idNumbers = new Map<string, number>();
  private idsKey = '';

  readonly table: CodeTable;
  readonly profile: CompactProfile;
  private readonly numbersIds: boolean;
  /** compact-v3: the table's `v3` rules apply. */
  readonly v3: boolean;

  constructor(table: CodeTable, profile: CompactProfile) {
    this.table = table;
    this.profile = profile;
    this.numbersIds = profile !== 'compact-v1';
    this.v3 = profile === 'compact-v3';
  }

  /** Before a frame of `type` is encoded or decoded: the first state frame fixes the game. */
  see(type: string): GameCodes | undefined {
    this.game ??= gameOfStateEvent(this.table, type);
    return this.game;
  }

  /** The sticky fields of `type` in this socket's profile. */
  stickyFields(type: string): readonly string[] {
    if (!this.game) return [];
    // Kept per section and profile, not per socket: every socket of a game asks the same.
    const cache = this.v3 ? v3StickyFields : stickyFields;
    let byType = cache.get(this.game);
    if (!byType) cache.set(this.game, (byType = new Map()));
    let fields = byType.get(type);
    if (!fields) byType.set(type, (fields = stickyFieldsOf(this.game.events[type], this.v3)));
    return fields;
  }

  stickyJson(type: string, field: string): string | undefined {
    return this.sticky.get(this.ownerOf(type, field))?.get(field);
  }

  idNumber(id: string): number | undefined {
    return this.idNumbers.get(id);
  }

  idAt(n: number): string | undefined {
    return this.idList[n];
  }

  /** Everything an encoding of `type` depends on besides the data: sockets that agree here get the same bytes. */
  key(type: string): string {
    let values = '';
    for (const field of this.stickyFields(type)) values += `${this.stickyJson(type, field) ?? ''}\u0001`;
    // A state frame identical to the last is dropped: the last one is part of what its bytes depend on.
    const state = type === this.game?.stateEvent ? (this.lastState ?? '') : '';
    return `${this.game?.kind ?? ''}\u0002${values}\u0002${this.idsKey}\u0002${state}`;
  }

  /** After a frame of `type` with this data was sent (or received). */
  remember(type: string, data: unknown): void {
    const game = this.game;
    if (!game || !isObject(data)) return;
    if (type === game.stateEvent) this.lastState = JSON.stringify(data);
    for (const field of this.stickyFields(type)) {
      const value = stickyValue(data, field);
      if (value === undefined) continue;
      const owner = this.ownerOf(type, field);
      let fields = this.sticky.get(owner);
      if (!fields) this.sticky.set(owner, (fields = new Map()));
      fields.set(field, JSON.stringify(value));
    }
    if (this.numbersIds) this.learnIds(game, data);
  }

  private ownerOf(type: string, field: string): string {
    return (this.v3 && this.game?.events[type]?.v3?.stickyAs?.[field]) || type;
  }

  // A frame's new ids are numbered in sorted order, not in the order the frame carries them: two
  // viewers whose frames carry the same ids (each its own `you` first) get the same numbers, so
  // their sockets keep sharing encodings.
  private learnIds(game: GameCodes, data: unknown): void {
    const fresh = new Set<string>();
    collectIds(game, data, undefined, fresh);
    for (const id of [...fresh].filter((id) => !this.idNumbers.has(id)).sort()) {
      if (this.idList.length >= this.table.maxIds) break;
      this.idNumbers.set(id, this.idList.length);
      this.idList.push(id);
    }
    if (fresh.size > 0) this.idsKey = this.idList.join('\u0001');
  }
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
 * A sticky field's value: a top-level field (`total`), or a column of a list (`scores[].playerId`:
 * every entry's playerId, in order) when every entry has it.
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
