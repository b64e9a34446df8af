/** One variable the server does not accept, as its refusal line says it. */
export interface ConfigProblem {
  readonly variable: string;
  /** The value as the line shows it: quoted, a URL's password masked, a secret left out. */
  readonly shown: string;
  /** What is wrong beyond not being what the variable accepts (a list's bad entry, the lease against the heartbeat). */
  readonly detail?: string;
  readonly accepts: string;
  /** A secret's line is its own: the problem after the name, no value. */
  readonly line: string;
}

/**
 * The environment the server was started with has values it does not accept. Thrown before
 * anything is written under DATA_DIR; its message has one line per variable, all of them.
 */
export class ConfigError extends Error {
  constructor(readonly problems: readonly ConfigProblem[]) {
    super(
      `${problems.length === 1 ? 'an environment variable has a value' : `${problems.length} environment variables have values`} the server does not accept:\n${problems.map((p) => `  ${p.line}`).join('\n')}`,
    );
    this.name = 'ConfigError';
  }
}
