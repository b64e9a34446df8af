import { JsonLog } from './json-log';
import { ServerConfig } from './server-config';

/** Where a generated token may be shown: a person's terminal, never a file or a log collector. */
export interface Terminal {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

/**
 * Says where the admin token comes from, and never puts the token itself in the log. Logs are
 * collected, shipped and kept by others, and a token in a log opens the console to all its readers.
 * A token that this start generated is printed once, and only to an interactive terminal. Anywhere
 * else, the log says which file holds the token and how to set ADMIN_TOKEN instead.
 */
export function announceAdminToken(
  config: Pick<ServerConfig, 'adminToken' | 'adminTokenGenerated' | 'adminTokenFile'>,
  log: JsonLog,
  terminal: Terminal = process.stdout,
): void {
  if (!config.adminTokenFile) return; // ADMIN_TOKEN came from the environment, so the operator has it.
  const howToSet = 'set ADMIN_TOKEN (32 or more characters, e.g. openssl rand -base64 32) to choose one';
  if (config.adminTokenGenerated && terminal.isTTY) {
    terminal.write(`\nAdmin token (shown once; kept in ${config.adminTokenFile}):\n  ${config.adminToken}\n\n`);
    log.info('ADMIN_TOKEN was not set; generated one, printed it to this terminal and kept it in DATA_DIR', {
      file: config.adminTokenFile,
      howToSet,
    });
  } else if (config.adminTokenGenerated) {
    log.warn('ADMIN_TOKEN was not set; generated one and kept it in DATA_DIR (not shown here: read the file, or set your own)', {
      file: config.adminTokenFile,
      howToSet,
    });
  } else {
    log.info('ADMIN_TOKEN was not set; using the one kept in DATA_DIR', { file: config.adminTokenFile, howToSet });
  }
}
