import type { ReactNode } from 'react'

export interface StatProps {
  readonly label: string
  readonly value: ReactNode
  readonly detail?: ReactNode
  readonly tone?: 'normal' | 'warn' | 'bad'
}

/** One number an operator reads at a glance, with what it is and a line of detail. */
export function Stat({ label, value, detail, tone = 'normal' }: StatProps) {
  return (
    <div className={`stat tone-${tone}`} role="group" aria-label={label}>
      <div className="stat-label">{label}</div>
      <div className="stat-value">{value}</div>
      {detail !== undefined && <div className="stat-detail">{detail}</div>}
    </div>
  )
}
