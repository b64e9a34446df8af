// The admin API's shapes, as PROTOCOL.md section 4 and the admin contract describe them.
// Every fetcher and the stream speak these; nothing else in the console defines wire types.

export type Phase = 'lobby' | 'question' | 'reveal' | 'finished' | 'closed'

export interface SocketCounts {
  readonly host: number
  readonly player: number
  readonly spectator: number
}

export interface CommandStat {
  readonly command: string
  /** Commands of this type since the server started. */
  readonly count: number
  /** Mean duration of those commands, in milliseconds. */
  readonly meanMs: number
}

export interface PoolState {
  readonly total: number
  readonly idle: number
  readonly waiting: number
  readonly max: number
}

export interface Overview {
  readonly rooms: number
  readonly sockets: SocketCounts
  readonly commandsPerSecond: number
  readonly commands: readonly CommandStat[]
  readonly pool: PoolState
  readonly poolAcquire: { readonly count: number; readonly meanMs: number }
  readonly build: { readonly version: string; readonly sha: string }
  /** The server's clock (epoch ms) when it built this snapshot. */
  readonly serverTime: number
}

interface RoomFields {
  readonly code: string
  readonly phase: Phase
  readonly playersConnected: number
  /** Index of the current question, or null outside a game. */
  readonly question: number | null
  readonly mailboxDepth: number
  /** The deepest the mailbox has been. */
  readonly mailboxDepthMax: number
  readonly commands: number
  readonly lastCommandMs: number | null
  readonly ageSeconds: number
}

export interface RoomRow extends RoomFields {
  readonly players: number
}

export interface RoomsSnapshot {
  readonly rooms: readonly RoomRow[]
}

export interface RoomPlayer {
  readonly id: string
  readonly name: string
  readonly connected: boolean
  readonly score: number
}

export interface OpenQuestion {
  readonly index: number
  readonly total: number
  readonly text: string
  /** Server epoch ms. */
  readonly closesAt: number
}

export interface RoomCommand {
  readonly type: string
  /** Server epoch ms when the command arrived. */
  readonly at: number
  readonly mailboxWaitMs: number
  readonly ms: number
  readonly status: number
  readonly roundTrips: number
}

export interface RoomDetail extends RoomFields {
  readonly players: readonly RoomPlayer[]
  readonly hostName: string
  readonly openQuestion: OpenQuestion | null
  /** Oldest first, at most 100. */
  readonly lastCommands: readonly RoomCommand[]
}

/** The error body every admin endpoint answers with. */
export interface ApiErrorBody {
  readonly statusCode?: number
  readonly code?: string
  readonly message?: string
}

/** One server process sharing the database, as its own heartbeat last wrote it (PROTOCOL.md section 10). */
export interface InstanceRow {
  readonly name: string
  readonly url: string
  readonly pid: number
  /** Epoch ms. */
  readonly startedAt: number
  readonly rooms: number
  /** What the instance says of itself. */
  readonly health: 'ok' | 'draining' | 'stopped'
  readonly seenSecondsAgo: number
  /** `silent`: no heartbeat for three beats, so down, cut off or frozen. */
  readonly status: 'up' | 'silent' | 'stopped'
  /** The instance serving this console. */
  readonly self: boolean
}

export interface InstancesSnapshot {
  readonly instances: readonly InstanceRow[]
}
