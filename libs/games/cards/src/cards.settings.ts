import { z } from 'zod';
import { decimalField, jsonObject, printableField, readBody, wholeField } from '@app/protocol';
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

const MAX_CHIPS = 1_000_000;
const MAX_MS = 60_000;
const THINK_ACCEPTS = `must be [min, max] whole milliseconds, 0 <= min <= max <= ${MAX_MS}`;

/**
 * The schema of the body of `POST /api/tables` (or `POST /api/rooms {game: "cards"}`). The server
 * reads the body with it, and a 400 names the first bad field. The API document shows it too. The
 * blinds and the buy-in default to the larger of their default and the least they must be.
 */
export const TABLE_SETTINGS = jsonObject({
  name: printableField(32),
  bots: wholeField(1, 8).default(DEFAULT_SETTINGS.bots),
  smallBlind: wholeField(1, MAX_CHIPS).default(DEFAULT_SETTINGS.smallBlind),
  bigBlind: wholeField(1, MAX_CHIPS).optional().meta({ default: DEFAULT_SETTINGS.bigBlind, description: 'at least the small blind' }),
  buyIn: wholeField(1, MAX_CHIPS).optional().meta({ default: DEFAULT_SETTINGS.buyIn, description: 'at least the big blind' }),
  actionSeconds: decimalField(0.2, 600, ' of seconds')
    .default(DEFAULT_SETTINGS.actionSeconds)
    .meta({ description: 'fractions are for tests' }),
  botThinkMs: z
    .array(z.int(THINK_ACCEPTS).min(0, THINK_ACCEPTS).max(MAX_MS, THINK_ACCEPTS), { error: THINK_ACCEPTS })
    .length(2, THINK_ACCEPTS)
    .refine((t) => t[0] <= t[1], THINK_ACCEPTS)
    .default([...DEFAULT_SETTINGS.botThinkMs]),
  handPauseMs: wholeField(0, MAX_MS).default(DEFAULT_SETTINGS.handPauseMs),
  seed: z.int('must be an integer').optional().meta({
    description:
      'only on a server started for tests (ALLOW_TEST_SEEDS=1; refused with 400 otherwise): the same seed and human actions deal and play the same hands',
  }),
}).superRefine((b, ctx) => {
  if (b.bigBlind !== undefined && b.bigBlind < b.smallBlind)
    ctx.addIssue({ code: 'custom', path: ['bigBlind'], message: 'must be at least the small blind' });
  const bigBlind = b.bigBlind ?? Math.max(DEFAULT_SETTINGS.bigBlind, b.smallBlind);
  if (b.buyIn !== undefined && b.buyIn < bigBlind)
    ctx.addIssue({ code: 'custom', path: ['buyIn'], message: 'must be at least the big blind' });
});

/**
 * Reads the body of `POST /api/tables` as settings, or refuses it with a 400 naming the first bad
 * field. In tests the caller gives `seed`; otherwise the server passes its own (`randomSeed`).
 */
export function tableSettings(body: unknown, randomSeed: number): TableSettings {
  return tableSettingsOf(readBody(TABLE_SETTINGS, body), randomSeed);
}

/** Turns the body, as its schema read it, into settings, filling in the blinds and buy-in it left out, and the seed. */
export function tableSettingsOf(b: z.output<typeof TABLE_SETTINGS>, randomSeed: number): TableSettings {
  const bigBlind = b.bigBlind ?? Math.max(DEFAULT_SETTINGS.bigBlind, b.smallBlind);
  return {
    name: b.name,
    bots: b.bots,
    smallBlind: b.smallBlind,
    bigBlind,
    buyIn: b.buyIn ?? Math.max(DEFAULT_SETTINGS.buyIn, bigBlind),
    actionSeconds: b.actionSeconds,
    botThinkMs: [b.botThinkMs[0], b.botThinkMs[1]],
    handPauseMs: b.handPauseMs,
    seed: b.seed ?? randomSeed,
    idleCloseMs: DEFAULT_SETTINGS.idleCloseMs,
  };
}
