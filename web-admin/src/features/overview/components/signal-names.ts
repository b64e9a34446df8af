import type { Overview } from '../../../lib/admin-types'

/** The overload signals as the console names them. */
export const SIGNAL_NAMES: Record<Overview['admission']['signals'][number]['signal'], string> = {
  event_loop_delay: 'Event-loop delay',
  commit_wait: 'Commit wait',
  pool_wait: 'Pool wait',
}
