/**
 * Judges whether a server told its players the truth about their answers, from what the players saw.
 *
 * Every answer is sent once. When its reply was not 200, the bench sends it again under the same id
 * after its question closed. The server's reply memory returns the original outcome of a recorded
 * command (PROTOCOL.md section 3), and a command that was not recorded is executed afresh, which a
 * closed question refuses. So a 200 to the resend means the answer had been recorded, whatever its
 * first reply said. And every answer that got 200 must be counted in that question's
 * `question.closed` counts. These are pure functions over what the bots kept, with no I/O.
 */

/** What came of one send: its reply's status and code, or the lack of a reply. */
export interface SendOutcome {
  /** Epoch ms when the frame was handed to the socket. */
  readonly sentAt: number;
  /** The time from the send to the reply (or to giving up). */
  readonly ms: number;
  /** The reply's status. It is null when no reply came (the socket closed, or the send timed out). */
  readonly status: number | null;
  /** The reply's error code, or why there was none. */
  readonly error?: string;
  readonly timedOut: boolean;
}

/** One answer of one seat to one question, and the resend of its id when the first reply was not 200. */
export interface AnswerOutcome extends SendOutcome {
  readonly room: string;
  readonly seat: string;
  /** The room's game (1 for its first game), and the question's index in that game. */
  readonly game: number;
  readonly question: number;
  readonly id: string;
  /**
   * The same id, sent again after its question closed. It is absent when the first reply was 200, or
   * when the run ended first.
   */
  resend?: SendOutcome;
}

/** A question's close as the room's sockets saw it, with how many answers its counts hold. */
export interface QuestionClose {
  readonly room: string;
  readonly game: number;
  readonly question: number;
  /** The sum of the counts in `question.closed` (the first one seen). */
  readonly counted: number;
  /** Another socket of the room saw other counts for the same question. */
  readonly disagreed: boolean;
}

/**
 * What a resend says about its first reply:
 * - `lied`: the first reply refused (503, 409...), yet the answer was recorded (the resend got 200,
 *   or 409 `already_answered`).
 * - `truthful`: the first reply refused, and the answer was not recorded (the resend was refused
 *   too, with anything but 503 or 429, which the server does not remember).
 * - `recorded-unanswered` / `not-recorded-unanswered`: the first send got no reply, and the resend
 *   says whether the answer had been recorded. This is no lie, because the client was told nothing.
 * - `undetermined`: the resend got no reply, or got 503/429 again, so nothing can be read from it.
 * - `not-resent`: the run ended before the question closed, or the seat ended.
 */
export type ResendVerdict = 'lied' | 'truthful' | 'recorded-unanswered' | 'not-recorded-unanswered' | 'undetermined' | 'not-resent';

/** Returns the verdict on an answer whose first reply was not 200, or undefined for an acknowledged answer. */
export function resendVerdict(a: AnswerOutcome): ResendVerdict | undefined {
  if (a.status === 200) return undefined;
  const r = a.resend;
  if (!r) return 'not-resent';
  if (r.status === null || r.status === 503 || r.status === 429) return 'undetermined';
  const recorded = isRecordedResend(r);
  if (a.status === null) return recorded ? 'recorded-unanswered' : 'not-recorded-unanswered';
  return recorded ? 'lied' : 'truthful';
}

// 409 already_answered also means the answer was recorded. The seat's answer is in, under the only
// id the seat sent for that question, even if the reply memory did not return it.
function isRecordedResend(r: SendOutcome): boolean {
  return r.status === 200 || (r.status === 409 && r.error === 'already_answered');
}

/** How a first reply reads in a table: `200`, `503 database_unavailable`, `no reply` or `timed out`. */
export function outcomeKey(o: SendOutcome): string {
  if (o.timedOut) return 'timed out';
  if (o.status === null) return 'no reply';
  return o.status !== 200 && o.error ? `${o.status} ${o.error}` : String(o.status);
}

export interface AnswerAccount {
  readonly sent: number;
  /** How many first replies were 200. */
  readonly acknowledged: number;
  /** First replies by status and code (`outcomeKey`). They add up to `sent`. */
  readonly firstReplies: Record<string, number>;
  /** Answers whose first reply was not 200 and whose id was sent again after the question closed. */
  readonly resent: number;
  /** Verdicts on every answer whose first reply was not 200. They add up to `sent - acknowledged`. */
  readonly verdicts: Record<ResendVerdict, number>;
  /** Refusals that lied, by the first reply's status, such as `{503: 11}`. */
  readonly falseRefusals: Record<string, number>;
  /** The refusals with 503 that lied, because the answer was recorded. */
  readonly false503: number;
  /** The answers the database holds, as far as the bench can tell: first 200s, and resends that got 200. */
  readonly recorded: number;
}

export function accountAnswers(answers: readonly AnswerOutcome[]): AnswerAccount {
  const firstReplies: Record<string, number> = {};
  const verdicts: Record<ResendVerdict, number> = {
    lied: 0,
    truthful: 0,
    'recorded-unanswered': 0,
    'not-recorded-unanswered': 0,
    undetermined: 0,
    'not-resent': 0,
  };
  const falseRefusals: Record<string, number> = {};
  let acknowledged = 0;
  let resent = 0;
  for (const a of answers) {
    const key = outcomeKey(a);
    firstReplies[key] = (firstReplies[key] ?? 0) + 1;
    if (a.status === 200) {
      acknowledged++;
      continue;
    }
    if (a.resend) resent++;
    const verdict = resendVerdict(a)!;
    verdicts[verdict]++;
    if (verdict === 'lied') falseRefusals[String(a.status)] = (falseRefusals[String(a.status)] ?? 0) + 1;
  }
  return {
    sent: answers.length,
    acknowledged,
    firstReplies,
    resent,
    verdicts,
    falseRefusals,
    false503: falseRefusals['503'] ?? 0,
    recorded: acknowledged + verdicts.lied + verdicts['recorded-unanswered'],
  };
}

/** One question whose counts hold fewer answers than got 200. */
export interface ShortQuestion {
  readonly room: string;
  readonly game: number;
  readonly question: number;
  readonly acknowledged: number;
  readonly counted: number;
}

export interface MissingAcks {
  /** Questions with at least one answer that got 200 (first reply or resend). */
  readonly questions: number;
  /** Of those, the ones whose close no socket of the room saw, so their counts are unknown. */
  readonly closeNotSeen: number;
  /** Questions whose counts add up to fewer answers than got 200. */
  readonly short: ShortQuestion[];
  /** Answers that got 200 and are missing from their question's counts, summed over the questions. */
  readonly missing: number;
  /** Questions whose counts two sockets of the room saw differently. */
  readonly disagreed: number;
}

/**
 * Checks, per question, that `question.closed`'s counts add up to at least the answers that got
 * 200 for it (first replies, and resends whose 200 shows the answer had been recorded).
 */
export function missingAcks(answers: readonly AnswerOutcome[], closes: readonly QuestionClose[]): MissingAcks {
  const key = (x: { room: string; game: number; question: number }) => `${x.room}\u0000${x.game}\u0000${x.question}`;
  const acked = new Map<string, { room: string; game: number; question: number; n: number }>();
  for (const a of answers) {
    if (a.status !== 200 && !(a.resend && isRecordedResend(a.resend))) continue;
    const k = key(a);
    const entry = acked.get(k) ?? { room: a.room, game: a.game, question: a.question, n: 0 };
    entry.n++;
    acked.set(k, entry);
  }
  const closeOf = new Map(closes.map((c) => [key(c), c]));
  const short: ShortQuestion[] = [];
  let closeNotSeen = 0;
  for (const [k, q] of acked) {
    const close = closeOf.get(k);
    if (!close) {
      closeNotSeen++;
      continue;
    }
    if (close.counted < q.n) short.push({ room: q.room, game: q.game, question: q.question, acknowledged: q.n, counted: close.counted });
  }
  return {
    questions: acked.size,
    closeNotSeen,
    short,
    missing: short.reduce((t, s) => t + (s.acknowledged - s.counted), 0),
    disagreed: closes.filter((c) => c.disagreed).length,
  };
}

/**
 * Returns the number of answers that the counts of a `question.closed` hold. The counts are per choice
 * (an array), or `{right, wrong}` for a text question.
 */
export function answersCounted(counts: unknown): number | undefined {
  const values = Array.isArray(counts) ? counts : counts && typeof counts === 'object' ? Object.values(counts) : undefined;
  if (!values || !values.every((v) => typeof v === 'number' && Number.isFinite(v))) return undefined;
  return (values as number[]).reduce((t, v) => t + v, 0);
}
