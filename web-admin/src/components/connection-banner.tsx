import type { ConnectionStatus } from '@game-rooms/client'

/** Says so while the socket is down; the client reconnects by itself, the page only tells. */
export function ConnectionBanner({ status }: { readonly status: ConnectionStatus }) {
  if (status.state !== 'reconnecting') return null
  return (
    <div className="connection-banner" role="status">
      Connection lost, reconnecting…
    </div>
  )
}
