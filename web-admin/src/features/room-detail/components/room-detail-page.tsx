import { useState } from 'react'
import { ConfirmDialog } from '../../../components/confirm-dialog'
import { NoticeList } from '../../../components/notices'
import { useNotices } from '../../../hooks/use-notices'
import { PhaseBadge } from '../../../components/phase-badge'
import { Stat } from '../../../components/stat'
import type { RoomPlayer } from '../../../lib/admin-types'
import { formatAge, formatCount, formatMs } from '../../../lib/format'
import { Link } from '../../../components/link'
import { useCloseRoom } from '../api/close-room'
import { useRoom } from '../api/get-room'
import { useKickPlayer } from '../api/kick-player'
import { CommandLog } from './command-log'
import { CommandTiming } from './command-timing'
import { OpenQuestion } from './open-question'
import { PlayersPanel } from './players-panel'
import { RefusalsPanel } from './refusals-panel'

type PendingAction = { readonly kind: 'close' } | { readonly kind: 'kick'; readonly player: RoomPlayer }

export function RoomDetailPage({ code }: { readonly code: string }) {
  const { detail, gone, error, serverOffsetMs } = useRoom(code)
  const closeRoom = useCloseRoom(code.toUpperCase())
  const kickPlayer = useKickPlayer(code.toUpperCase())
  const { notices, push, dismiss } = useNotices()
  const [pending, setPending] = useState<PendingAction | null>(null)
  const upper = code.toUpperCase()

  const header = (
    <div className="room-header">
      <Link to="/rooms" className="back">
        ← Rooms
      </Link>
      <h1 className="room-title">
        Room <span className="room-code">{upper}</span>
      </h1>
      {detail && <PhaseBadge phase={detail.phase} />}
      {detail && <span className="muted">hosted by {detail.hostName}</span>}
      <div className="spacer" />
      {detail && !gone && detail.phase !== 'closed' && (
        <button type="button" className="button danger" onClick={() => setPending({ kind: 'close' })}>
          Close room
        </button>
      )}
    </div>
  )

  if (!detail) {
    return (
      <div className="page">
        {header}
        <NoticeList notices={notices} dismiss={dismiss} />
        {gone ? (
          <p className="page-error">Room {upper} is not live on this server: it was closed, it expired, or no such room exists.</p>
        ) : (
          <p className={error ? 'page-error' : 'loading'}>{error ? `Could not load room ${upper}: ${error}` : `Loading room ${upper}…`}</p>
        )}
        {/* A closed room's refusals are kept too. */}
        {gone && <RefusalsPanel code={upper} />}
      </div>
    )
  }

  const waits = detail.lastCommands.map((c) => c.mailboxWaitMs)
  const worstWait = waits.length ? Math.max(...waits) : null
  return (
    <div className={`page${gone ? ' is-gone' : ''}`}>
      {header}
      <NoticeList notices={notices} dismiss={dismiss} />
      {gone && (
        <p className="gone-banner" role="alert">
          Room {upper} is no longer live. What follows is its last known state.
        </p>
      )}
      <div className="stats">
        <Stat
          label="Players connected"
          value={`${detail.playersConnected} / ${detail.players.length}`}
          tone={detail.playersConnected < detail.players.length ? 'warn' : 'normal'}
        />
        <Stat
          label="Mailbox"
          value={formatCount(detail.mailboxDepth)}
          detail={`deepest ${detail.mailboxDepthMax}`}
          tone={detail.mailboxDepth > 0 ? 'warn' : 'normal'}
        />
        <Stat label="Commands" value={formatCount(detail.commands)} detail={`last took ${formatMs(detail.lastCommandMs)}`} />
        <Stat label="Worst mailbox wait" value={formatMs(worstWait)} detail="over the commands below" />
        <Stat label="Age" value={formatAge(detail.ageSeconds)} />
      </div>
      <div className="split">
        <div className="column">
          <OpenQuestion question={detail.openQuestion} phase={detail.phase} serverOffsetMs={serverOffsetMs} />
          <CommandTiming commands={detail.lastCommands} />
        </div>
        <PlayersPanel players={detail.players} onKick={gone ? null : (player) => setPending({ kind: 'kick', player })} />
      </div>
      <CommandLog commands={detail.lastCommands} />
      <RefusalsPanel code={upper} />

      {pending?.kind === 'kick' && (
        <ConfirmDialog
          title={`Kick ${pending.player.name}?`}
          confirmLabel={`Kick ${pending.player.name}`}
          onClose={() => setPending(null)}
          onConfirm={async () => {
            await kickPlayer(pending.player.id)
            push('ok', `Kicked ${pending.player.name} from ${upper}. Their socket was closed (4003).`)
          }}
        >
          <p>
            {pending.player.name} leaves room {upper} at once: their socket closes with 4003 and this seat cannot come back.
          </p>
        </ConfirmDialog>
      )}
      {pending?.kind === 'close' && (
        <ConfirmDialog
          title={`Close room ${upper}?`}
          confirmLabel="Close room"
          onClose={() => setPending(null)}
          onConfirm={async () => {
            await closeRoom()
            push('ok', `Closed room ${upper}. Everyone in it was told and disconnected (4004).`)
          }}
        >
          <p>
            The game ends for the host and all {detail.players.length} players: they get <code>room.closed</code> and their sockets close
            with 4004. A closed room cannot be opened again.
          </p>
        </ConfirmDialog>
      )}
    </div>
  )
}
