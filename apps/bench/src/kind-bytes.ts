import type { WireFrame } from '@game-rooms/client';
import { fmtNum, table } from './report';

// This file counts bytes per answer by question kind (PROTOCOL.md section 13), as the bots' sockets
// received them. The server counts its bytes by message kind only
// (`game_ws_outbound_bytes_total{kind}`), and a `question.closed` is the same message whatever kind
// of question it closes. So each socket here counts every frame it receives for the kind of the
// question it last saw open, until the game ends.

/** The kinds in the order the report lists them. */
export const KIND_ORDER = ['choice', 'truefalse', 'multi', 'poll', 'text'];

/** What a frame belongs to before the first question opens and after the game finishes. */
const BETWEEN = 'between questions';

/**
 * One question kind's share: the bytes the sockets received while a question of that kind was open
 * or revealed, and the answers to such questions.
 */
interface KindShare {
  bytes: number;
  frames: number;
  answers: number;
}

export class KindBytes {
  private readonly shares = new Map<string, KindShare>();
  /** Each socket's question kind now, by the socket's name. */
  private readonly current = new Map<string, string>();

  /**
   * Counts a frame of one socket. A received frame counts for the kind of the question that the
   * socket has open or revealed.
   */
  frame(socket: string, f: WireFrame): void {
    if (f.direction !== 'received') return;
    const decoded = f.frame as { type?: string; data?: { kind?: string } } | undefined;
    if (decoded?.type === 'question.open') this.current.set(socket, decoded.data?.kind ?? 'choice');
    else if (decoded?.type === 'game.finished') this.current.set(socket, BETWEEN);
    const share = this.share(this.current.get(socket) ?? BETWEEN);
    share.bytes += f.bytes;
    share.frames++;
  }

  /** Counts an answer to a question of this kind. Only a 200 counts. */
  answer(kind: string, status: number | null): void {
    if (status === 200) this.share(kind).answers++;
  }

  /** The figures by kind, in the report's order, followed by what fell between questions. */
  rows(): { kind: string; bytes: number; frames: number; answers: number; bytesPerAnswer: number | null }[] {
    const kinds = [...KIND_ORDER.filter((k) => this.shares.has(k)), ...[...this.shares.keys()].filter((k) => !KIND_ORDER.includes(k))];
    return kinds.map((kind) => {
      const s = this.shares.get(kind)!;
      return { kind, ...s, bytesPerAnswer: s.answers ? s.bytes / s.answers : null };
    });
  }

  /** The report's section. */
  section(heading = '##'): string {
    const rows = this.rows();
    const intro =
      'Every frame every bot socket of the rooms received (host included), given to the kind of the question that socket last saw open, from its `question.open` to the next one (the reveal and the scores included); before the first question and after `game.finished` it goes to "between questions". Bytes as the wire carried them (UTF-8), divided by the answers to that kind that got a 200.';
    if (rows.length === 0) return [`${heading} Bytes per answer by question kind`, '', 'No frames were received.', ''].join('\n');
    return [
      `${heading} Bytes per answer by question kind`,
      '',
      intro,
      '',
      table(
        ['question kind', 'answers', 'frames', 'bytes', 'bytes per answer'],
        rows.map((r) => [
          r.kind,
          fmtNum(r.answers),
          fmtNum(r.frames),
          fmtNum(r.bytes),
          r.bytesPerAnswer === null ? '-' : fmtNum(r.bytesPerAnswer, 1),
        ]),
      ),
      '',
    ].join('\n');
  }

  private share(kind: string): KindShare {
    let share = this.shares.get(kind);
    if (!share) this.shares.set(kind, (share = { bytes: 0, frames: 0, answers: 0 }));
    return share;
  }
}

/**
 * Makes a deck of `questions` questions that cycles through every kind, for `POST /api/decks`. The
 * bench's rooms play it in its order, so each kind comes up as often as the others.
 */
export function everyKindDeck(questions: number): { name: string; questions: Record<string, unknown>[] } {
  const make = [
    (i: number) => ({ text: `Bench choice ${i}?`, choices: ['Venus', 'Mars', 'Jupiter', 'Saturn'], correct: 1 }),
    (i: number) => ({ kind: 'truefalse', text: `Bench true or false ${i}?`, correct: i % 2 }),
    (i: number) => ({ kind: 'multi', text: `Bench multi ${i}?`, choices: ['2', '3', '4', '9'], correct: [0, 1] }),
    (i: number) => ({ kind: 'poll', text: `Bench poll ${i}?`, choices: ['Spring', 'Summer', 'Autumn', 'Winter'] }),
    (i: number) => ({ kind: 'text', text: `Bench capital ${i}?`, accepted: ['Paris'] }),
  ];
  return { name: 'Bench: every kind', questions: Array.from({ length: questions }, (_, i) => make[i % make.length](i + 1)) };
}
