import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { GameMetrics } from '@app/observability';
import { StatementMeter } from '@app/persistence';
import { Admission as AdmissionView, LaterRefusal, raised, refusalLater, RoomErrorCode, RoomException } from '@app/protocol';
import { JsonLog } from '../config/json-log';
import { ServerConfig } from '../config/server-config';
import { JSON_LOG, SERVER_CONFIG } from '../tokens';
import {
  ADMITTING,
  admitBelow,
  anonymousWorkMarks,
  GateState,
  nextGateState,
  OVERLOAD_SIGNALS,
  OverloadMarks,
  OverloadSignal,
  SignalLevels,
} from './overload-gate';
import { OverloadSignals } from './overload-signals';

// A level must stay below its lower mark for most of a second before admission resumes.
const RETRY_AFTER_SECONDS = 2;

const SIGNAL_WORDS: Record<OverloadSignal, string> = {
  event_loop_delay: 'event-loop delay',
  commit_wait: 'commit wait',
  pool_wait: 'pool wait',
};

/**
 * Admission control (PROTOCOL.md section 14). While this instance is overloaded, every request that
 * would create work gets 503 `overloaded` with Retry-After: opening rooms and tables, joins,
 * spectators, and activating a room that is not live here (which a socket for such a room also
 * needs). Commands of rooms already live are never refused here, because they are the work that
 * the shedding protects.
 *
 * The instance is overloaded when one of the signals (OverloadSignals) held its mark through most
 * of the last second. The shedding ends once every signal is below half its mark (overload-gate.ts).
 *
 * New anonymous work (opening, joining, deck writes, lookups, spectator seats) meets a second gate
 * on the same readings, with a far lower event-loop mark (OVERLOAD_ANONYMOUS_EVENT_LOOP_DELAY_MS).
 * That work is shed while the loop runs late enough for rooms to notice, long before the main gate
 * trips.
 */
@Injectable()
export class Admission implements OnModuleInit, OnModuleDestroy {
  private readonly signals = new OverloadSignals();
  private readonly marks: OverloadMarks;
  private readonly anonymousMarks: OverloadMarks;
  private state: GateState = ADMITTING;
  private anonymousState: GateState = ADMITTING;
  private since: number | null = null;
  private refusedTotal = 0;
  private anonymousSince: number | null = null;
  private anonymousRefusedTotal = 0;
  private unobserve?: () => void;

  constructor(
    @Inject(SERVER_CONFIG) config: ServerConfig,
    private readonly metrics: GameMetrics,
    private readonly meter: StatementMeter,
    @Inject(JSON_LOG) private readonly log: JsonLog,
  ) {
    this.marks = {
      event_loop_delay: config.overloadEventLoopDelayMs,
      commit_wait: config.overloadCommitWaitMs,
      pool_wait: config.overloadPoolWaitMs,
    };
    this.anonymousMarks = anonymousWorkMarks(config.overloadAnonymousEventLoopDelayMs);
  }

  onModuleInit(): void {
    this.unobserve = this.meter.observe({
      committed: (seconds) => this.signals.commitWaited(seconds * 1000),
      acquire: (seconds) => this.signals.checkoutWaited(seconds * 1000),
    });
    this.signals.start((levels) => this.settle(levels));
  }

  onModuleDestroy(): void {
    this.signals.stop();
    this.unobserve?.();
  }

  /** Called before new work over HTTP. Throws 503 `overloaded` while the instance sheds work. */
  check(): void {
    const refusal = this.refusalFor(1);
    if (refusal) throw refusal;
  }

  /**
   * Called before new anonymous work over HTTP. Returns the 503 `overloaded` while the event loop
   * holds the lower mark. Refusals here are counted under their own limit, and in the console's
   * `anonymous.refused`, not in its `refused`.
   */
  anonymousRefusal(): LaterRefusal | undefined {
    if (!this.anonymousState.shedding) return undefined;
    this.anonymousRefusedTotal++;
    this.metrics.limitRefused('overload_anonymous_event_loop_delay');
    const level = Math.round(this.signals.levels().event_loop_delay);
    return refusalLater(
      RoomErrorCode.Overloaded,
      `this server is busy (event-loop delay ${level} ms, its mark for new anonymous work ${this.anonymousMarks.event_loop_delay} ms): it opens, seats, stores and looks up nothing new now, so that the rooms playing keep their pace; nothing was recorded, retry later`,
      RETRY_AFTER_SECONDS,
    );
  }

  /**
   * While the instance sheds work, returns the refusal of `count` pieces of new work (rooms asked to
   * go live together), and counts each of them once. Returns undefined while admitting.
   */
  refusalFor(count: number): RoomException | undefined {
    const refusal = this.sheddingRefusal(count);
    return refusal && raised(refusal);
  }

  /** As refusalFor, as plain data (for the front door). */
  sheddingRefusal(count: number): LaterRefusal | undefined {
    const cause = this.state.cause;
    if (!this.state.shedding || cause === null) return undefined;
    this.refusedTotal += count;
    for (let i = 0; i < count; i++) this.metrics.limitRefused(`overload_${cause}`);
    const level = Math.round(this.signals.levels()[cause]);
    // The commit wait is measured above the fastest commit of the last minute, and says so.
    const above = cause === 'commit_wait' ? ` above the fastest of the last minute, ${Math.round(this.signals.commitFloorMs())} ms` : '';
    return refusalLater(
      RoomErrorCode.Overloaded,
      `this server is overloaded (${SIGNAL_WORDS[cause]} ${level} ms${above}, its mark ${this.marks[cause]} ms): it takes no new work now; nothing was recorded, retry later`,
      RETRY_AFTER_SECONDS,
    );
  }

  /**
   * The console's view: whether new work is shed, why, and each signal against its marks; the same
   * for the gate of new anonymous work; and the fastest commit that the commit wait is measured above.
   */
  view(): AdmissionView {
    const levels = this.signals.levels();
    const anonymousMark = this.anonymousMarks.event_loop_delay;
    return {
      shedding: this.state.shedding,
      cause: this.state.cause,
      since: this.since,
      refused: this.refusedTotal,
      signals: OVERLOAD_SIGNALS.map((signal) => ({
        signal,
        levelMs: Math.round(levels[signal] * 10) / 10,
        markMs: this.marks[signal],
        admitBelowMs: admitBelow(this.marks[signal]),
      })),
      anonymous: {
        shedding: this.anonymousState.shedding,
        since: this.anonymousSince,
        markMs: anonymousMark,
        admitBelowMs: admitBelow(anonymousMark),
        refused: this.anonymousRefusedTotal,
      },
      commitFloorMs: Math.round(this.signals.commitFloorMs() * 10) / 10,
    };
  }

  private settle(levels: SignalLevels): void {
    this.settleAnonymous(levels);
    const was = this.state;
    this.state = nextGateState(was, levels, this.marks);
    if (this.state.shedding === was.shedding) return;
    const rounded = Object.fromEntries(OVERLOAD_SIGNALS.map((s) => [s, Math.round(levels[s])]));
    if (this.state.shedding) {
      this.since = Date.now();
      this.log.warn('overloaded: new work is refused until the signals fall back', {
        cause: this.state.cause,
        levelsMs: rounded,
        marksMs: this.marks,
        commitFloorMs: Math.round(this.signals.commitFloorMs()),
      });
    } else {
      this.log.info('admitting new work again', { levelsMs: rounded, shedForMs: this.since === null ? 0 : Date.now() - this.since });
      this.since = null;
    }
  }

  private settleAnonymous(levels: SignalLevels): void {
    const was = this.anonymousState;
    this.anonymousState = nextGateState(was, levels, this.anonymousMarks);
    if (this.anonymousState.shedding === was.shedding) return;
    const delayMs = Math.round(levels.event_loop_delay);
    if (this.anonymousState.shedding) {
      this.anonymousSince = Date.now();
      this.log.info('the event loop runs late: new anonymous work is refused until it catches up', {
        levelMs: delayMs,
        markMs: this.anonymousMarks.event_loop_delay,
      });
    } else {
      this.log.info('admitting new anonymous work again', { levelMs: delayMs });
      this.anonymousSince = null;
    }
  }
}
