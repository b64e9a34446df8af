// The badge shows any game's phase: trivia's (lobby, question, ...) or another game's own (a table's
// between, playing, ...).
export function PhaseBadge({ phase }: { readonly phase: string }) {
  return <span className={`badge phase-${phase}`}>{phase}</span>
}
