import { accountAnswers, AnswerOutcome, answersCounted, missingAcks, QuestionClose, resendVerdict, SendOutcome } from './answer-truth';

const reply = (status: number | null, error?: string, timedOut = false): SendOutcome => ({
  sentAt: 1000,
  ms: 12,
  status,
  timedOut,
  ...(error ? { error } : {}),
});

let n = 0;
function answer(
  first: SendOutcome,
  resend?: SendOutcome,
  where: Partial<Pick<AnswerOutcome, 'room' | 'game' | 'question' | 'seat'>> = {},
): AnswerOutcome {
  n++;
  return { room: 'ROOM01', seat: `p${n}`, game: 1, question: 0, id: `p${n}-g1-q0`, ...first, ...where, ...(resend ? { resend } : {}) };
}

describe('resendVerdict', () => {
  it('has nothing to say of an answer acknowledged at once', () => {
    expect(resendVerdict(answer(reply(200)))).toBeUndefined();
  });

  it('calls a 503 whose resend got 200 a lie: the answer had been recorded', () => {
    expect(resendVerdict(answer(reply(503, 'database_unavailable'), reply(200)))).toBe('lied');
  });

  it('calls a 503 whose resend was refused for the closed question truthful', () => {
    expect(resendVerdict(answer(reply(503, 'database_unavailable'), reply(409, 'question_closed')))).toBe('truthful');
  });

  it('reads 409 already_answered to the resend as recorded: the seat sent no other id for that question', () => {
    expect(resendVerdict(answer(reply(503), reply(409, 'already_answered')))).toBe('lied');
  });

  it('calls any refusal that a 200 contradicts a lie, whatever its status', () => {
    expect(resendVerdict(answer(reply(409, 'question_closed'), reply(200)))).toBe('lied');
    expect(resendVerdict(answer(reply(429, 'rate_limited'), reply(200)))).toBe('lied');
  });

  it('says whether an answer that got no reply was recorded, without calling it a lie', () => {
    expect(resendVerdict(answer(reply(null, 'socket closed 1012'), reply(200)))).toBe('recorded-unanswered');
    expect(resendVerdict(answer(reply(null, 'timed out', true), reply(409, 'question_closed')))).toBe('not-recorded-unanswered');
  });

  it('reads nothing from a resend that got no reply, or 503 or 429 again (neither is remembered)', () => {
    expect(resendVerdict(answer(reply(503), reply(null, 'socket closed 1006')))).toBe('undetermined');
    expect(resendVerdict(answer(reply(503), reply(503)))).toBe('undetermined');
    expect(resendVerdict(answer(reply(503), reply(429)))).toBe('undetermined');
  });

  it('marks a refused answer the run ended before resending', () => {
    expect(resendVerdict(answer(reply(503)))).toBe('not-resent');
  });
});

describe('accountAnswers', () => {
  const answers = [
    answer(reply(200)),
    answer(reply(200)),
    answer(reply(503, 'database_unavailable'), reply(200)),
    answer(reply(503, 'database_unavailable'), reply(200)),
    answer(reply(503, 'database_unavailable'), reply(409, 'question_closed')),
    answer(reply(409, 'question_closed'), reply(409, 'question_closed')),
    answer(reply(409, 'question_closed'), reply(200)),
    answer(reply(null, 'socket closed 1012'), reply(200)),
    answer(reply(null, 'timed out', true), reply(409, 'question_closed')),
    answer(reply(503), reply(null)),
    answer(reply(503)),
  ];
  const account = accountAnswers(answers);

  it('counts the first replies by status and code, adding up to the answers sent', () => {
    expect(account.sent).toBe(11);
    expect(account.acknowledged).toBe(2);
    expect(account.firstReplies).toEqual({
      '200': 2,
      '503 database_unavailable': 3,
      '409 question_closed': 2,
      'no reply': 1,
      'timed out': 1,
      '503': 2,
    });
    expect(Object.values(account.firstReplies).reduce((t, v) => t + v, 0)).toBe(account.sent);
  });

  it('gives every refused answer one verdict, adding up to those not acknowledged', () => {
    expect(account.verdicts).toEqual({
      lied: 3,
      truthful: 2,
      'recorded-unanswered': 1,
      'not-recorded-unanswered': 1,
      undetermined: 1,
      'not-resent': 1,
    });
    expect(Object.values(account.verdicts).reduce((t, v) => t + v, 0)).toBe(account.sent - account.acknowledged);
    expect(account.resent).toBe(account.sent - account.acknowledged - account.verdicts['not-resent']);
  });

  it('counts the false 503s apart from the other false refusals', () => {
    expect(account.falseRefusals).toEqual({ '503': 2, '409': 1 });
    expect(account.false503).toBe(2);
  });

  it('counts as recorded the acknowledged answers and those a resend shows were recorded', () => {
    expect(account.recorded).toBe(2 + 3 + 1);
  });

  it('accounts for no answers as nothing', () => {
    expect(accountAnswers([])).toMatchObject({
      sent: 0,
      acknowledged: 0,
      resent: 0,
      false503: 0,
      recorded: 0,
      firstReplies: {},
      falseRefusals: {},
    });
  });
});

describe('missingAcks', () => {
  const close = (question: number, counted: number, extra: Partial<QuestionClose> = {}): QuestionClose => ({
    room: 'ROOM01',
    game: 1,
    question,
    counted,
    disagreed: false,
    ...extra,
  });

  it('passes a question whose counts hold at least its acknowledged answers', () => {
    const answers = [
      answer(reply(200), undefined, { question: 0 }),
      answer(reply(200), undefined, { question: 0 }),
      answer(reply(503), reply(409, 'question_closed'), { question: 0 }),
    ];
    expect(missingAcks(answers, [close(0, 2)])).toEqual({ questions: 1, closeNotSeen: 0, short: [], missing: 0, disagreed: 0 });
    // Counts may hold more answers than got 200: answers whose replies were lost, or a seat the bench
    // does not play.
    expect(missingAcks(answers, [close(0, 4)]).missing).toBe(0);
  });

  it('finds a question whose counts leave out an acknowledged answer, and how many', () => {
    const answers = [
      answer(reply(200), undefined, { question: 1 }),
      answer(reply(200), undefined, { question: 1 }),
      answer(reply(503), reply(200), { question: 1 }),
      answer(reply(200), undefined, { question: 2 }),
    ];
    const result = missingAcks(answers, [close(1, 1), close(2, 1)]);
    expect(result.short).toEqual([{ room: 'ROOM01', game: 1, question: 1, acknowledged: 3, counted: 1 }]);
    expect(result.missing).toBe(2);
    expect(result.questions).toBe(2);
  });

  it('keeps questions apart by room and game', () => {
    const answers = [
      answer(reply(200), undefined, { room: 'ROOM01', game: 1, question: 0 }),
      answer(reply(200), undefined, { room: 'ROOM02', game: 1, question: 0 }),
      answer(reply(200), undefined, { room: 'ROOM01', game: 2, question: 0 }),
    ];
    const closes = [close(0, 1), close(0, 0, { room: 'ROOM02' }), close(0, 1, { game: 2 })];
    expect(missingAcks(answers, closes).short).toEqual([{ room: 'ROOM02', game: 1, question: 0, acknowledged: 1, counted: 0 }]);
  });

  it('says which questions could not be checked, and which two sockets saw differently', () => {
    const answers = [
      answer(reply(200), undefined, { question: 0 }),
      answer(reply(200), undefined, { question: 5 }),
      answer(reply(503), reply(409), { question: 6 }),
    ];
    const result = missingAcks(answers, [close(0, 1, { disagreed: true })]);
    expect(result).toEqual({ questions: 2, closeNotSeen: 1, short: [], missing: 0, disagreed: 1 });
  });
});

describe('answersCounted', () => {
  it('adds up counts per choice, and right and wrong for a text question', () => {
    expect(answersCounted([1, 0, 2, 1])).toBe(4);
    expect(answersCounted({ right: 2, wrong: 3 })).toBe(5);
    expect(answersCounted([])).toBe(0);
  });

  it('refuses what is not counts', () => {
    expect(answersCounted(undefined)).toBeUndefined();
    expect(answersCounted([1, 'x'])).toBeUndefined();
    expect(answersCounted('3')).toBeUndefined();
  });
});
