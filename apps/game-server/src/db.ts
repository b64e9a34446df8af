import 'reflect-metadata';
import { migrate, MigrationOptions, migrationStates } from '@app/persistence';
import { MIGRATIONS } from '../../../migrations';
import { readDatabaseConfig } from '@app/server';
import { EmbeddedDatabase, startEmbeddedPostgres } from './embedded-postgres';

// `npm run db -- status | migrate` shows or applies the schema's migrations without starting the
// server. It reads the server's own environment (DATABASE_URL, DATABASE_DIRECT_URL, DATA_DIR). With
// no DATABASE_URL, it uses the embedded PostgreSQL under DATA_DIR. It migrates as the server does at
// start: straight to PostgreSQL, under the migrations' advisory lock, with no statement timeout.

const USAGE =
  'usage: npm run db -- status | migrate\n  status   list every migration as applied or pending (and those the database has from another build)\n  migrate  apply the pending migrations, waiting for any other process that is migrating\n';

const COMMANDS = {
  status: async (options: MigrationOptions) => {
    const states = await migrationStates(options);
    for (const { name, state } of states)
      out(`${state.padEnd(8)} ${name}${state === 'unknown' ? ' (applied by a build that is not this one)' : ''}`);
    out(summary(states.filter((s) => s.state === 'applied').length, states.filter((s) => s.state === 'pending').length));
  },
  migrate: async (options: MigrationOptions) => {
    const applied = await migrate(options);
    for (const name of applied) out(`applied  ${name}`);
    const states = await migrationStates(options);
    out(
      applied.length === 0
        ? `nothing to apply: ${summary(states.filter((s) => s.state === 'applied').length, 0)}`
        : summary(states.filter((s) => s.state === 'applied').length, 0),
    );
  },
};

async function main(args: readonly string[]): Promise<number> {
  const command = args.length === 1 ? COMMANDS[args[0] as keyof typeof COMMANDS] : undefined;
  if (!command) {
    process.stderr.write(USAGE);
    return 2;
  }
  const config = readDatabaseConfig();
  let embedded: EmbeddedDatabase | undefined;
  if (!config.databaseUrl) embedded = await startEmbeddedPostgres(config.dataDir, (msg) => process.stderr.write(`${msg}\n`));
  try {
    const url = config.databaseDirectUrl ?? config.databaseUrl ?? embedded!.url;
    await command({ url, migrations: MIGRATIONS, applicationName: 'game-server-db', log: (msg) => process.stderr.write(`${msg}\n`) });
    return 0;
  } finally {
    await embedded?.stop();
  }
}

function summary(applied: number, pending: number): string {
  return `${applied} applied, ${pending} pending`;
}

function out(line: string): void {
  process.stdout.write(`${line}\n`);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`db failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
