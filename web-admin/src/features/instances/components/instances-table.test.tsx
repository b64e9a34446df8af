import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { InstanceRow } from '../../../lib/admin-types'
import { InstancesTable } from './instances-table'

const NOW = 1_800_000_000_000

function instance(overrides: Partial<InstanceRow>): InstanceRow {
  return {
    name: 'instance-1',
    url: 'http://127.0.0.1:4001',
    pid: 101,
    startedAt: NOW - 90_000,
    rooms: 3,
    health: 'ok',
    seenSecondsAgo: 1.2,
    status: 'up',
    self: false,
    ...overrides,
  }
}

const rowOf = (name: string) => screen.getByText(name).closest('tr')!

describe(InstancesTable.name, () => {
  it('shows every instance with its url, pid, health, rooms and last beat, and marks the one serving the console', () => {
    render(
      <InstancesTable
        now={NOW}
        instances={[
          instance({ name: 'instance-1', self: true, seenSecondsAgo: 0 }),
          instance({ name: 'instance-2', url: 'http://127.0.0.1:4002', pid: 102, rooms: 7, seenSecondsAgo: 2.4 }),
        ]}
      />,
    )
    const first = rowOf('instance-1')
    expect(first).toHaveTextContent('this console')
    expect(within(first).getByText('now')).toBeInTheDocument()
    expect(first).toHaveTextContent('1m 30s')
    const second = rowOf('instance-2')
    expect(second).not.toHaveTextContent('this console')
    expect(second.querySelector('[data-col="rooms"]')).toHaveTextContent('7')
    expect(second.querySelector('[data-col="seen"]')).toHaveTextContent('2s ago')
    expect(second).toHaveTextContent('http://127.0.0.1:4002')
    expect(second).toHaveTextContent('102')
    expect(within(second).getByText('up')).toHaveClass('instance-up')
  })

  it('makes a silent instance stand out and shows a stopped one as stopped', () => {
    render(
      <InstancesTable
        now={NOW}
        instances={[
          instance({ name: 'instance-1', status: 'silent', seenSecondsAgo: 42 }),
          instance({ name: 'instance-2', status: 'stopped', health: 'stopped' }),
        ]}
      />,
    )
    expect(rowOf('instance-1')).toHaveClass('instance-silent')
    expect(within(rowOf('instance-1')).getByText('silent')).toHaveClass('instance-silent')
    expect(rowOf('instance-1').querySelector('[data-col="seen"]')).toHaveTextContent('42s ago')
    expect(rowOf('instance-2')).not.toHaveClass('instance-silent')
    expect(within(rowOf('instance-2')).getAllByText('stopped')[0]).toHaveClass('instance-stopped')
  })

  it('says so when no instance has beaten yet', () => {
    render(<InstancesTable now={NOW} instances={[]} />)
    expect(screen.getByText('No instance has written its heartbeat yet.')).toBeInTheDocument()
  })
})
