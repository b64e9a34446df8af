// Late arrivals (docs/protocol.md section 13): a player seated while a game runs plays from the
// next question that opens, and the standings and results give each player `from`, the first
// question (counted from 0, as the wire counts) that player could answer.

/** The first question a player who arrived during the game could answer; undefined for one who played from the start. */
export function lateFrom(entry: object): number | undefined {
  const from = 'from' in entry ? entry.from : undefined
  return typeof from === 'number' && from > 0 ? from : undefined
}

/** "from question 3", as the standings and results say it, for a late arrival; empty otherwise. */
export function lateFromWords(entry: object): string {
  const from = lateFrom(entry)
  return from === undefined ? '' : `from question ${from + 1}`
}
