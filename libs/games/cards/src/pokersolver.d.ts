// pokersolver ships no types, so this declares the part of its API that our evaluator uses.
declare module 'pokersolver' {
  export class Hand {
    static solve(cards: string[], game?: string, canDisqualify?: boolean): Hand;
    static winners(hands: Hand[]): Hand[];
    /** The hand's category, from 1 (high card) to 9 (straight flush). */
    readonly rank: number;
    readonly name: string;
    readonly descr: string;
    readonly cards: unknown[];
  }
}
