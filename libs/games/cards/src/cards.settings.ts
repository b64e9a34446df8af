import { badData, isPlainObject, RoomErrorCode, RoomException } from '@app/protocol';
import { TableSettings } from './cards.types';

export const DEFAULT_SETTINGS: Omit<TableSettings, 'name' | 'seed'> = {
  bots: 5,
  smallBlind: 1,
  bigBlind: 2,
  buyIn: 200,
  actionSeconds: 15,
  botThinkMs: [400, 1500],
  handPauseMs: 2000,
  idleCloseMs: 5 * 60_000,
};

const PRINTABLE = /^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+$/u;
const MAX_CHIPS = 1_000_000;
const MAX_MS = 60_000;

/**
 * The body of `POST /api/tables` as settings, or a 400 naming the first bad field. `seed` is the
 * caller's for tests; otherwise the server passes its own (`randomSeed`).
 */
export function tableSettings(body: unknown, randomSeed: number): TableSettings {
  if (!isPlainObject(body)) throw new RoomException(RoomErrorCode.BadData, 'the body must be a JSON object');
  const name = body.name;
  if (typeof name !== 'string' || name.trim().length === 0 || [...name].length > 32 || !PRINTABLE.test(name)) {
    throw badData('name', 'must be 1-32 printable characters');
  }
  const bots = whole(body, 'bots', DEFAULT_SETTINGS.bots, 1, 8);
  const smallBlind = whole(body, 'smallBlind', DEFAULT_SETTINGS.smallBlind, 1, MAX_CHIPS);
  const bigBlind = whole(body, 'bigBlind', Math.max(DEFAULT_SETTINGS.bigBlind, smallBlind), 1, MAX_CHIPS);
  if (bigBlind < smallBlind) throw badData('bigBlind', 'must be at least the small blind');
  const buyIn = whole(body, 'buyIn', Math.max(DEFAULT_SETTINGS.buyIn, bigBlind), 1, MAX_CHIPS);
  if (buyIn < bigBlind) throw badData('buyIn', 'must be at least the big blind');
  const actionSeconds = body.actionSeconds ?? DEFAULT_SETTINGS.actionSeconds;
  if (typeof actionSeconds !== 'number' || !Number.isFinite(actionSeconds) || actionSeconds < 0.2 || actionSeconds > 600) {
    throw badData('actionSeconds', 'must be a number of seconds from 0.2 to 600');
  }
  const think = body.botThinkMs ?? DEFAULT_SETTINGS.botThinkMs;
  if (
    !Array.isArray(think) ||
    think.length !== 2 ||
    !think.every((t) => Number.isInteger(t) && t >= 0 && t <= MAX_MS) ||
    think[0] > think[1]
  ) {
    throw badData('botThinkMs', `must be [min, max] whole milliseconds, 0 <= min <= max <= ${MAX_MS}`);
  }
  const handPauseMs = whole(body, 'handPauseMs', DEFAULT_SETTINGS.handPauseMs, 0, MAX_MS);
  const seed = body.seed ?? randomSeed;
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed)) throw badData('seed', 'must be an integer');
  return {
    name,
    bots,
    smallBlind,
    bigBlind,
    buyIn,
    actionSeconds,
    botThinkMs: [think[0], think[1]],
    handPauseMs,
    seed,
    idleCloseMs: DEFAULT_SETTINGS.idleCloseMs,
  };
}

function whole(body: Record<string, unknown>, field: string, fallback: number, min: number, max: number): number {
  const v = body[field] ?? fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw badData(field, `must be a whole number from ${min} to ${max}`);
  return v;
}

/** The body of `POST /api/tables` (or `POST /api/rooms {game: "cards"}`), for the API document. */
export const TABLE_SETTINGS_SCHEMA = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 32 },
    bots: { type: 'integer', minimum: 1, maximum: 8, default: 5 },
    smallBlind: { type: 'integer', minimum: 1, default: 1 },
    bigBlind: { type: 'integer', minimum: 1, default: 2, description: 'at least the small blind' },
    buyIn: { type: 'integer', minimum: 1, default: 200, description: 'at least the big blind' },
    actionSeconds: { type: 'number', minimum: 0.2, maximum: 600, default: 15, description: 'fractions are for tests' },
    botThinkMs: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 60000 }, minItems: 2, maxItems: 2, default: [400, 1500] },
    handPauseMs: { type: 'integer', minimum: 0, maximum: 60000, default: 2000 },
    seed: {
      type: 'integer',
      description: 'only on a server started for tests (ALLOW_TEST_SEEDS=1; refused with 400 otherwise): the same seed and human actions deal and play the same hands',
    },
  },
} as const;
