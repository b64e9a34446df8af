import { z } from 'zod';

// The building blocks of every game's wire schemas. Each refusal names the field and says in plain
// words what it must be. The server turns the first issue into its 400 (`data.choice must be ...`).

/** A command's `data`: a JSON object whose known fields are checked and whose other fields are dropped. */
export function commandData<S extends z.ZodRawShape>(shape: S) {
  return z.object(shape, { error: 'must be a JSON object' });
}

/** A whole number in [min, max], with one message for every way of missing it. */
export function integerField(why: string, min = 0, max = Number.MAX_SAFE_INTEGER) {
  return z.number({ error: why }).int({ error: why }).min(min, { error: why }).max(max, { error: why });
}

/** Every schema of a game's commands (or events), by wire type. */
export type SchemaMap = Record<string, z.ZodType>;

/** What a client sends for each command type: the schemas' input, in which an optional field may be left out. */
export type CommandsOf<M extends SchemaMap> = { [K in keyof M]: z.input<M[K]> };

/** What a client receives for each event type. */
export type EventsOf<M extends SchemaMap> = { [K in keyof M]: z.output<M[K]> };

export type DataCheck<T> = { readonly ok: true; readonly data: T } | { readonly ok: false; readonly message: string };

/**
 * Checks a command's data against its schema. Returns the data as the game takes it, or the
 * message of the first thing wrong, naming its field from `data` (`data.question must be a whole
 * number from 0`).
 */
export function checkData<S extends z.ZodType>(schema: S, data: unknown): DataCheck<z.output<S>> {
  const result = schema.safeParse(data);
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, message: firstIssueSentence(result.error, 'data', 'data') };
}

/**
 * The first issue as a sentence: its field, then what it accepts (`questions[0].correct must be a
 * whole number from 0 to 3`). `whole` names the value itself, for when that is what is wrong
 * (`the body`, `data`). `inside` prefixes every field's path (`data.choice`). The server's 400s
 * use it, for commands and HTTP bodies alike.
 */
export function firstIssueSentence(error: z.ZodError, whole: string, inside?: string): string {
  const issue = error.issues[0];
  if (!issue) return `${whole} is not valid`;
  const field = issue.path.length === 0 ? whole : fieldPath(issue.path, inside);
  return `${field} ${issue.message}`;
}

/** A path such as `questions[0].choices[1]`, written as a reader of the JSON writes it, after `inside` when given (`data.choice`). */
export function fieldPath(path: readonly PropertyKey[], inside?: string): string {
  const keys = path.map((key, i) =>
    typeof key === 'number' ? `[${key}]` : i === 0 && inside === undefined ? String(key) : `.${String(key)}`,
  );
  return (inside ?? '') + keys.join('');
}
