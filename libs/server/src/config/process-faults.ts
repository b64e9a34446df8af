import { JsonLog } from './json-log';

/** Where the process counts the faults it survives. Once the server runs, this is GameMetrics. */
export interface FaultCounter {
  unhandledRejection(): void;
}

/**
 * What the process does with a fault that escaped every room. (Each room guards its own publishing
 * and settling, so a throw there lets only that room go.)
 *
 * - A promise rejection nobody handled is a bug in one piece of work that nobody awaited. It is
 *   logged and counted (`game_unhandled_rejections_total`), and the process goes on serving its
 *   other rooms. Otherwise, on Node 20, the rejection would end the process and every room in it.
 * - An uncaught exception escaped a timer or an event handler part way through, and may have left
 *   anything half changed. It is logged, and the process exits with status 1, as Node's default
 *   does. The orchestrator then starts the process again (or another instance takes its rooms when
 *   their leases run out), and every room comes back from what PostgreSQL committed (PROTOCOL.md
 *   section 5).
 *
 *     const faults = new ProcessFaults(log);
 *     faults.install();                 // at start, before anything runs
 *     faults.countWith(metrics);        // once the server's metrics exist
 */
export class ProcessFaults {
  private counter: FaultCounter | undefined;
  /**
   * Rejections that came while the server was starting, before the metrics existed. They are
   * counted once they do.
   */
  private uncounted = 0;

  constructor(
    private readonly log: JsonLog,
    private readonly exit: (code: number) => void = (code) => process.exit(code),
  ) {}

  install(): void {
    process.on('unhandledRejection', (reason) => this.unhandledRejection(reason));
    process.on('uncaughtException', (error, origin) => this.uncaughtException(error, origin));
  }

  countWith(counter: FaultCounter): void {
    this.counter = counter;
    for (; this.uncounted > 0; this.uncounted--) counter.unhandledRejection();
  }

  unhandledRejection(reason: unknown): void {
    if (this.counter) this.counter.unhandledRejection();
    else this.uncounted++;
    this.log.error('unhandled promise rejection: logged and counted; the process goes on', describe(reason));
  }

  uncaughtException(error: unknown, origin: string): void {
    this.log.error('uncaught exception: the process ends, and its rooms come back from what PostgreSQL committed', {
      origin,
      ...describe(error),
    });
    this.exit(1);
  }
}

/**
 * Describes a fault in one line (`reason`), and gives the stack to whoever fixes the bug (`error`,
 * which the log gives more room).
 */
function describe(fault: unknown): { reason: string; error: string } {
  const stack = fault instanceof Error ? fault.stack : undefined;
  return { reason: String(fault), error: stack ?? String(fault) };
}
