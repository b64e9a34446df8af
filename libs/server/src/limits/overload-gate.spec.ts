import {
  ADMITTING,
  anonymousWorkMarks,
  FastestWait,
  GateState,
  nextGateState,
  OverloadMarks,
  SignalLevels,
  SustainedLevel,
} from './overload-gate';

const MARKS: OverloadMarks = { event_loop_delay: 200, commit_wait: 400, pool_wait: 100 };
const QUIET: SignalLevels = { event_loop_delay: 5, commit_wait: 20, pool_wait: 0 };

/** The states the gate passes through as it is given `levels`, one after another. */
function run(levels: Partial<SignalLevels>[], marks = MARKS, from: GateState = ADMITTING): GateState[] {
  const states: GateState[] = [];
  let state = from;
  for (const l of levels) states.push((state = nextGateState(state, { ...QUIET, ...l }, marks)));
  return states;
}

describe('nextGateState', () => {
  it('admits while every signal is below its mark, however close', () => {
    expect(run([{}, { event_loop_delay: 199 }, { commit_wait: 399.9 }, { pool_wait: 99 }]).map((s) => s.shedding)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it('sheds once a signal reaches its mark, naming it', () => {
    expect(run([{ commit_wait: 400 }])).toEqual([{ shedding: true, cause: 'commit_wait' }]);
    expect(run([{ pool_wait: 250 }])).toEqual([{ shedding: true, cause: 'pool_wait' }]);
  });

  it('keeps shedding while the level sits between the lower mark and the mark, and admits only below the lower mark', () => {
    const states = run([
      { event_loop_delay: 250 },
      { event_loop_delay: 150 },
      { event_loop_delay: 100 },
      { event_loop_delay: 99 },
      { event_loop_delay: 150 },
    ]);
    expect(states.map((s) => s.shedding)).toEqual([true, true, true, false, false]);
    expect(states[2]).toEqual({ shedding: true, cause: 'event_loop_delay' });
  });

  it('does not flap when a level hovers around its mark', () => {
    const hovering = [210, 190, 205, 195, 199, 201, 180];
    expect(run(hovering.map((ms) => ({ event_loop_delay: ms }))).map((s) => s.shedding)).toEqual(hovering.map(() => true));
  });

  it('names the signal that holds the shedding: one past its mark first, else one above its lower mark', () => {
    const states = run([
      { event_loop_delay: 300 },
      { event_loop_delay: 120, commit_wait: 500 },
      { event_loop_delay: 50, commit_wait: 250 },
      { commit_wait: 150 },
    ]);
    expect(states).toEqual([
      { shedding: true, cause: 'event_loop_delay' },
      { shedding: true, cause: 'commit_wait' },
      { shedding: true, cause: 'commit_wait' },
      ADMITTING,
    ]);
  });

  it('admits only once every signal is below its lower mark', () => {
    const states = run([{ pool_wait: 100 }, { pool_wait: 10, event_loop_delay: 150 }, { pool_wait: 10, event_loop_delay: 20 }]);
    expect(states.map((s) => s.shedding)).toEqual([true, true, false]);
  });

  it('never sheds for a signal whose mark is 0 (turned off)', () => {
    const off = { ...MARKS, event_loop_delay: 0 };
    expect(run([{ event_loop_delay: 60_000 }, { event_loop_delay: 60_000 }], off)).toEqual([ADMITTING, ADMITTING]);
    // Nor does the gate keep shedding for that signal once another signal started the shedding.
    expect(run([{ pool_wait: 500, event_loop_delay: 60_000 }, { event_loop_delay: 60_000 }], off)).toEqual([
      { shedding: true, cause: 'pool_wait' },
      ADMITTING,
    ]);
  });
});

describe('the gate for new anonymous work (anonymousWorkMarks)', () => {
  const ANONYMOUS = anonymousWorkMarks(30);
  const busyLoop = (ms: number): Partial<SignalLevels> => ({ event_loop_delay: ms });

  it('sheds once the event loop holds its low mark, where the main gate still admits', () => {
    const levels = [busyLoop(29), busyLoop(30), busyLoop(45)];
    expect(run(levels, ANONYMOUS).map((s) => s.shedding)).toEqual([false, true, true]);
    expect(run(levels, MARKS).map((s) => s.shedding)).toEqual([false, false, false]);
    expect(run([busyLoop(30)], ANONYMOUS)).toEqual([{ shedding: true, cause: 'event_loop_delay' }]);
  });

  it('keeps shedding down to half its mark, and admits below it (hysteresis)', () => {
    const states = run([busyLoop(40), busyLoop(25), busyLoop(15), busyLoop(14.9), busyLoop(29)], ANONYMOUS);
    expect(states.map((s) => s.shedding)).toEqual([true, true, true, false, false]);
  });

  it("heeds the event loop alone: the database's waits are the main gate's", () => {
    expect(run([{ commit_wait: 60_000, pool_wait: 60_000 }], ANONYMOUS)).toEqual([ADMITTING]);
  });

  it('is off at 0', () => {
    expect(run([busyLoop(60_000)], anonymousWorkMarks(0))).toEqual([ADMITTING]);
  });
});

describe(SustainedLevel.name, () => {
  it('starts at 0: a fresh window holds no load', () => {
    expect(new SustainedLevel(10).level()).toBe(0);
  });

  it('is the level at least half the readings reached: one long pause does not make one', () => {
    const window = new SustainedLevel(10);
    for (let i = 0; i < 9; i++) window.push(3);
    window.push(2500);
    expect(window.level()).toBe(3);
  });

  it('rises once half the readings are high, and falls as they leave the window', () => {
    const window = new SustainedLevel(10);
    const levels: number[] = [];
    for (const reading of [300, 300, 300, 300, 250, 300, 1, 1, 1, 1, 1, 1]) {
      window.push(reading);
      levels.push(window.level());
    }
    // The fifth high reading sets the level, which is the lowest of the five highest readings.
    expect(levels).toEqual([0, 0, 0, 0, 250, 300, 300, 300, 300, 300, 250, 1]);
  });
});

describe(FastestWait.name, () => {
  it('is 0 before any wait, then the fastest wait of the window, the open slice included', () => {
    const fastest = new FastestWait(3);
    expect(fastest.floor()).toBe(0);
    fastest.saw(70);
    fastest.saw(61);
    expect(fastest.floor()).toBe(61);
    fastest.endSlice();
    fastest.saw(90);
    fastest.endSlice();
    expect(fastest.floor()).toBe(61);
  });

  it('forgets a fast wait once its slice has left the window, so a database that moved farther away sets the floor again', () => {
    const fastest = new FastestWait(2);
    fastest.saw(1);
    fastest.endSlice();
    fastest.saw(60);
    fastest.endSlice();
    expect(fastest.floor()).toBe(1);
    // A slice with no wait takes its place in the window and lowers nothing.
    fastest.endSlice();
    expect(fastest.floor()).toBe(60);
    fastest.endSlice();
    expect(fastest.floor()).toBe(0);
  });
});
