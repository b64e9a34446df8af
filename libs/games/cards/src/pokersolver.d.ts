// pokersolver ships no types; this is the part of its API our evaluator uses.
declare module 'pokersolver' {
  export class Hand {
    static solve(cards: string[], game?: string, canDisqualify?: boolean): Hand;
    static winners(hands: Hand[]): Hand[];
    /** 1 (high card) to 9 (straight flush). */
    readonly rank: number;
    readonly name: string;
    readonly descr: string;
    readonly cards: unknown[];
  }
}
