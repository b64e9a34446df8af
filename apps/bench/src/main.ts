import { commandLine, MODES, Options, parseArgs, USAGE, UsageError } from './cli';
import { runDbHelper } from './db-helper';
import { abMode } from './modes/ab';
import { failoverMode } from './modes/failover';
import { ladderMode } from './modes/ladder';
import { latencyMode } from './modes/latency';
import { outageMode } from './modes/outage';
import { overloadMode } from './modes/overload';
import { soakMode } from './modes/soak';
import { steadyMode } from './modes/steady';
import { storageMode } from './modes/storage';
import { tablesMode } from './modes/tables';
import { BenchRun, defaultOut, log, targetSettings } from './run';
import { HELPER_ARG } from './stack';
import { runShard, SHARD_ARG } from './tables-shard';

async function main(argv: string[]): Promise<number> {
  if (argv[0] === HELPER_ARG) {
    // This process is the database side of a run, which the bench itself started (see stack.ts).
    await runDbHelper(JSON.parse(process.env.BENCH_DB_CONFIG ?? '{}'));
    return -1;
  }
  if (argv[0] === SHARD_ARG) {
    // This process is one shard of a `tables` run, which the bench itself started (see
    // tables-shard.ts).
    await runShard();
    return 0;
  }
  const args = parseArgs(argv);
  if (args.flags.has('help') || !args.mode || args.mode === 'help') {
    process.stdout.write(USAGE);
    return args.flags.has('help') || args.mode === 'help' ? 0 : 2;
  }
  if (!(MODES as readonly string[]).includes(args.mode)) throw new UsageError(`unknown mode '${args.mode}' (one of ${MODES.join(', ')})`);
  const o = new Options(args);
  const cwd = process.cwd();
  const target = targetSettings(o, cwd);
  const out = o.string('out') ?? defaultOut(cwd, args.mode);
  const gzipRecords = o.flag('gzip-records');
  const command = commandLine(argv);
  // Check the options before anything starts.
  const modes = {
    latency: latencyMode,
    ladder: ladderMode,
    ab: abMode,
    soak: soakMode,
    outage: outageMode,
    tables: tablesMode,
    failover: failoverMode,
    steady: steadyMode,
    overload: overloadMode,
    storage: storageMode,
  };
  const play = modes[args.mode as keyof typeof modes](o, target);
  const run = new BenchRun(out, target, cwd, gzipRecords);

  // The first Ctrl-C stops playing, writes what was measured, and stops everything. A second Ctrl-C
  // stops at once.
  let interrupts = 0;
  const onSignal = (sig: string) => {
    if (++interrupts === 1) {
      log(`${sig}: stopping the run; the report will cover what was measured (again to stop at once)`);
      run.abort.abort();
    } else {
      log(`${sig} again: stopping at once`);
      void run.close().finally(() => process.exit(130));
    }
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));

  try {
    // A server given by --url is measured like a started one when it (and its database) run on this
    // machine.
    if (target.url) await run.findLocalProcesses();
    await play(run, command);
    log(`report: ${out}/report.md`);
    return run.signal.aborted ? 130 : 0;
  } finally {
    await run.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    // The helper keeps running until it is told to stop. Everything else exits with its status.
    if (code >= 0) process.exit(code);
  },
  (err) => {
    if (err instanceof UsageError) process.stderr.write(`${err.message}\n(npm run bench -- --help lists the modes and options)\n`);
    else process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(err instanceof UsageError ? 2 : 1);
  },
);
