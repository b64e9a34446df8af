// Late arrivals (docs/protocol.md section 13): a player seated while a game runs plays from the
// next question that opens. The standings and results give each such player `from`, the first
// question that player could answer, counted from 0 as the wire counts.

/** The first question a player who arrived during the game could answer, or undefined for one who played from the start. */
export function lateFrom(entry: object): number | undefined {
  const from = 'from' in entry ? entry.from : undefined
  return typeof from === 'number' && from > 0 ? from : undefined
}

/** Says "from question 3" for a late arrival, as the standings and results say it, and nothing for anyone else. */
export function lateFromWords(entry: object): string {
  const from = lateFrom(entry)
  return from === undefined ? '' : `from question ${from + 1}`
}
