import { z } from 'zod';

// The building blocks of every game's wire schemas. Each refusal names the field and says what it
// must be in plain words: the server turns the first issue into its 400 (`data.choice must be ...`).

/** A command's `data`: a JSON object whose known fields are checked and whose other fields are dropped. */
export function commandData<S extends z.ZodRawShape>(shape: S) {
  return z.object(shape, { error: 'must be a JSON object' });
}

/** A whole number in [min, max], with one message for every way to miss it. */
export function integerField(why: string, min = 0, max = Number.MAX_SAFE_INTEGER) {
  return z.number({ error: why }).int({ error: why }).min(min, { error: why }).max(max, { error: why });
}

/** Every schema of a game's commands (or events), by wire type. */
export type SchemaMap = Record<string, z.ZodType>;

/** What a client sends for each command type: the schemas' input (an optional field may be left out). */
export type CommandsOf<M extends SchemaMap> = { [K in keyof M]: z.input<M[K]> };

/** What a client receives for each event type. */
export type EventsOf<M extends SchemaMap> = { [K in keyof M]: z.output<M[K]> };

export type DataCheck<T> = { readonly ok: true; readonly data: T } | { readonly ok: false; readonly message: string };

/**
 * Checks a command's data against its schema: the data as the game takes it, or the message of
 * the first thing wrong, naming its field from `data` (`data.question must be a whole number from 0`).
 */
export function checkData<S extends z.ZodType>(schema: S, data: unknown): DataCheck<z.output<S>> {
  const result = schema.safeParse(data);
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, message: issueMessage(result.error.issues[0]) };
}

function issueMessage(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return 'data is not valid';
  const field = ['data', ...issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))].join('.').replace(/\.\[/g, '[');
  return `${field} ${issue.message}`;
}
