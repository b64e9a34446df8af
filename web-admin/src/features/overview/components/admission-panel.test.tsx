import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { formatClock } from '../../../lib/format'
import { overviewFixture } from '../../../testing/fixtures'
import { AdmissionPanel } from './admission-panel'

const rowOf = (name: string) => screen.getByText(name).closest('tr')!
const anonymousGate = () => screen.getByRole('group', { name: 'New anonymous work' })

describe(AdmissionPanel.name, () => {
  it('says both gates admit, and shows each signal against its marks and the commit floor beside the commit wait', () => {
    render(<AdmissionPanel admission={overviewFixture().admission} />)
    expect(screen.getByText('Admitting new work.')).toBeInTheDocument()
    expect(rowOf('Event-loop delay')).toHaveTextContent(/1\.20 ms\s*500 ms\s*250 ms/)
    expect(rowOf('Commit wait')).toHaveTextContent('3.40 ms')
    expect(rowOf('Commit wait')).toHaveTextContent('above the fastest commit of the last minute: 61.2 ms')
    expect(rowOf('Event-loop delay')).not.toHaveTextContent('fastest commit')
    expect(screen.getByText(/^0 refused since start/)).toBeInTheDocument()
    const gate = anonymousGate()
    expect(gate).toHaveTextContent('New anonymous work (opening, joining, deck writes, lookups, spectator seats): admitted.')
    expect(gate).toHaveTextContent(
      'Shed while the event-loop delay holds 30.0 ms; admitted again below 15.0 ms. 0 refused by this gate since start.',
    )
    expect(gate).not.toHaveTextContent('shedding')
  })

  it('says what the main gate sheds and how much it refused, and shows a signal turned off as off', () => {
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
    // The anonymous gate decides by itself: the main gate's shedding does not make it shed.
    expect(anonymousGate()).toHaveTextContent(': admitted.')
    expect(anonymousGate()).toHaveTextContent('0 refused by this gate since start.')
  })

  it('says the anonymous gate sheds, since when, and how much it refused, while the main gate admits', () => {
    const base = overviewFixture().admission
    const since = 1_700_000_123_000
    render(
      <AdmissionPanel
        admission={{
          ...base,
          signals: base.signals.map((s) => (s.signal === 'event_loop_delay' ? { ...s, levelMs: 42 } : s)),
          anonymous: { ...base.anonymous, shedding: true, since, refused: 1234 },
        }}
      />,
    )
    expect(screen.getByText('Admitting new work.')).toBeInTheDocument()
    expect(screen.getByText(/^0 refused since start/)).toBeInTheDocument()
    expect(rowOf('Event-loop delay')).toHaveTextContent('42.0 ms')
    const gate = anonymousGate()
    expect(gate).toHaveTextContent(
      `New anonymous work (opening, joining, deck writes, lookups, spectator seats): shedding since ${formatClock(since)}, ` +
        'with 503 overloaded, because the event loop runs late. Rooms already live go on.',
    )
    expect(within(gate).getByText(/1,234 refused by this gate since start\./)).toHaveTextContent(
      'Shed while the event-loop delay holds 30.0 ms; admitted again below 15.0 ms.',
    )
  })

  it('says the anonymous gate is off when its mark is 0, and that no commit came in the last minute', () => {
    const base = overviewFixture().admission
    render(<AdmissionPanel admission={{ ...base, commitFloorMs: 0, anonymous: { ...base.anonymous, markMs: 0, admitBelowMs: 0 } }} />)
    const gate = anonymousGate()
    expect(gate).toHaveTextContent(': admitted.')
    expect(gate).toHaveTextContent('Its event-loop mark is off, so it sheds nothing. 0 refused by this gate since start.')
    expect(gate).not.toHaveTextContent('Shed while')
    expect(rowOf('Commit wait')).toHaveTextContent('above the fastest commit of the last minute: none came')
  })
})
