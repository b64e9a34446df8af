import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { overviewFixture } from '../../../testing/fixtures'
import { AdmissionPanel } from './admission-panel'

const rowOf = (name: string) => screen.getByText(name).closest('tr')!

describe(AdmissionPanel.name, () => {
  it('says new work is admitted and shows each signal against its marks', () => {
    render(<AdmissionPanel admission={overviewFixture().admission} />)
    expect(screen.getByText('Admitting new work.')).toBeInTheDocument()
    expect(rowOf('Event-loop delay')).toHaveTextContent(/1\.20 ms\s*500 ms\s*250 ms/)
    expect(rowOf('Commit wait')).toHaveTextContent('3.40 ms')
    expect(screen.getByText(/0 refused since start/)).toBeInTheDocument()
  })

  it('says what sheds and how much it refused, and shows a signal turned off as off', () => {
    const base = overviewFixture().admission
    render(
      <AdmissionPanel
        admission={{
          ...base,
          shedding: true,
          cause: 'commit_wait',
          since: 1_700_000_000_000,
          refused: 12,
          signals: base.signals.map((s) =>
            s.signal === 'commit_wait' ? { ...s, levelMs: 640 } : s.signal === 'pool_wait' ? { ...s, markMs: 0, admitBelowMs: 0 } : s,
          ),
        }}
      />,
    )
    expect(screen.getByText(/Shedding new work .* commit wait is too high/)).toBeInTheDocument()
    expect(screen.getByText(/shedding since .* 12 refused since start/)).toBeInTheDocument()
    expect(rowOf('Commit wait')).toHaveTextContent('640 ms')
    expect(rowOf('Pool wait')).toHaveTextContent('off')
  })
})
