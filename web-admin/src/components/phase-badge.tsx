import type { Phase } from '../lib/admin-types'

export function PhaseBadge({ phase }: { readonly phase: Phase }) {
  return <span className={`badge phase-${phase}`}>{phase}</span>
}
