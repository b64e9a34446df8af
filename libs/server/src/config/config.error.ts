/** One variable that the server does not accept, as the refusal line describes it. */
export interface ConfigProblem {
  readonly variable: string;
  /** The value as the line shows it: quoted, with a URL's password masked, and with a secret left out. */
  readonly shown: string;
  /**
   * What is wrong beyond the value not being one the variable accepts, such as a list's bad entry,
   * or the lease set against the heartbeat.
   */
  readonly detail?: string;
  readonly accepts: string;
  /** The refusal line. A secret's line has a form of its own: the problem after the name, and no value. */
  readonly line: string;
}

/**
 * Thrown when the environment the server was started with has values that the server does not
 * accept. It is thrown before anything is written under DATA_DIR, and its message has one line for
 * each such variable, all of them listed.
 */
export class ConfigError extends Error {
  constructor(readonly problems: readonly ConfigProblem[]) {
    super(
      `${problems.length === 1 ? 'an environment variable has a value' : `${problems.length} environment variables have values`} the server does not accept:\n${problems.map((p) => `  ${p.line}`).join('\n')}`,
    );
    this.name = 'ConfigError';
  }
}
