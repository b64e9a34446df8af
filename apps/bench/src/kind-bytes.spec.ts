import type { WireFrame } from '@game-rooms/client';
import { everyKindDeck, KindBytes } from './kind-bytes';

const received = (type: string, bytes: number, data: object = {}): WireFrame => ({
  direction: 'received',
  text: '',
  bytes,
  at: 0,
  frame: { type, data },
});

describe(KindBytes.name, () => {
  it('gives each socket’s frames to the kind of the question it last saw open, and divides by that kind’s answers', () => {
    const k = new KindBytes();
    k.frame('R/host', received('room.state', 500));
    k.frame('R/1', received('question.open', 100));
    k.frame('R/host', received('question.open', 100));
    k.frame('R/1', received('question.closed', 60));
    // The host still sees the first question when player 1 has the next one open.
    k.frame('R/1', received('question.open', 80, { kind: 'text' }));
    k.frame('R/host', received('question.progress', 20));
    k.frame('R/1', { ...received('question.progress', 999), direction: 'sent' });
    k.frame('R/1', received('game.finished', 300));
    k.answer('choice', 200);
    k.answer('choice', 409);
    k.answer('text', 200);
    k.answer('text', 200);
    expect(k.rows()).toEqual([
      { kind: 'choice', bytes: 280, frames: 4, answers: 1, bytesPerAnswer: 280 },
      { kind: 'text', bytes: 80, frames: 1, answers: 2, bytesPerAnswer: 40 },
      { kind: 'between questions', bytes: 800, frames: 2, answers: 0, bytesPerAnswer: null },
    ]);
    expect(k.section()).toMatch(/\| text \| 2 \| 1 \| 80 \| 40\.0 \|/);
  });
});

describe(everyKindDeck.name, () => {
  it('cycles through every kind, as many questions as asked', () => {
    const deck = everyKindDeck(7);
    expect(deck.questions.map((q) => q.kind ?? 'choice')).toEqual(['choice', 'truefalse', 'multi', 'poll', 'text', 'choice', 'truefalse']);
  });
});
