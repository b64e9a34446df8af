import { z } from 'zod';

// The probes' answers (PROTOCOL.md section 11).

const identity = {
  instance: z.string().meta({ description: "this instance's stable name (INSTANCE_NAME, default hostname-port)" }),
  pid: z.int(),
  uptimeSeconds: z.int(),
};

export const Health = z.object({
  status: z.enum(['ok', 'unavailable']),
  ...identity,
  version: z.string(),
  sha: z.string(),
  db: z.object({ ok: z.boolean(), roundTripMs: z.number().optional(), error: z.string().optional() }),
});
export type Health = z.infer<typeof Health>;

export const Liveness = z.object({ status: z.literal('live'), ...identity });
export const Readiness = z.object({
  status: z.enum(['ready', 'not_ready']),
  reason: z.enum(['database_unavailable', 'draining']).optional(),
  instance: z.string(),
});

/** `GET /metrics`: the Prometheus text format. */
export const MetricsText = z.string().meta({ description: 'the families of PROTOCOL.md section 6' });
