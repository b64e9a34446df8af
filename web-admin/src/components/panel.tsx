import type { ReactNode } from 'react'

export interface PanelProps {
  readonly title: string
  /** Small text or controls on the right of the title. */
  readonly aside?: ReactNode
  readonly className?: string
  readonly children: ReactNode
}

/** A titled section of a view; its heading names it for screen readers and tests. */
export function Panel({ title, aside, className, children }: PanelProps) {
  const id = `panel-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`
  return (
    <section className={`panel ${className ?? ''}`} aria-labelledby={id}>
      <header className="panel-header">
        <h2 id={id}>{title}</h2>
        {aside && <div className="panel-aside">{aside}</div>}
      </header>
      {children}
    </section>
  )
}
