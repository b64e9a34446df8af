import type { AdminStream, StreamMessage } from './admin-stream'
import type { InstancesSnapshot, Overview, RoomDetail, RoomsSnapshot } from './admin-types'
import { SampleHistory, type LiveSample } from './live-samples'

// The store holds what the views read: the latest snapshot of each kind and the charts' samples,
// fed by the stream. A first GET per view may seed it, so that a view has data before the first
// push arrives.

export interface WatchedRoom {
  readonly code: string
  readonly detail: RoomDetail | null
  /** The server said this room is not live (closed, expired, or never existed). */
  readonly gone: boolean
}

export interface LiveState {
  readonly overview: Overview | null
  readonly rooms: RoomsSnapshot | null
  /** When `rooms` last changed (epoch ms, local clock). */
  readonly roomsAt: number | null
  /** Every instance sharing the database, from the serving instance's last heartbeat. */
  readonly instances: InstancesSnapshot | null
  readonly room: WatchedRoom | null
  readonly samples: readonly LiveSample[]
  /** The server's clock minus ours, to show deadlines the server set. */
  readonly serverOffsetMs: number
}

const EMPTY: LiveState = { overview: null, rooms: null, roomsAt: null, instances: null, room: null, samples: [], serverOffsetMs: 0 }

export class LiveStore {
  private state: LiveState = EMPTY
  private readonly history = new SampleHistory()
  private readonly listeners = new Set<() => void>()
  private unsubscribeStream: (() => void) | null = null
  readonly stream: AdminStream
  private readonly now: () => number

  constructor(stream: AdminStream, now: () => number = Date.now) {
    this.stream = stream
    this.now = now
  }

  start(): void {
    this.unsubscribeStream ??= this.stream.onMessage((message) => this.apply(message))
    this.stream.start()
  }

  stop(): void {
    this.unsubscribeStream?.()
    this.unsubscribeStream = null
    this.stream.stop()
  }

  getState = (): LiveState => this.state

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Starts (or stops, with null) receiving one room's detail. */
  watchRoom(code: string | null): void {
    const upper = code?.toUpperCase() ?? null
    if (this.state.room?.code !== upper) this.set({ room: upper ? { code: upper, detail: null, gone: false } : null })
    this.stream.watchRoom(upper)
  }

  /** Stores data from a one-off GET. The stream's newer messages replace it. */
  seedOverview(overview: Overview): void {
    if (!this.state.overview) this.apply({ type: 'overview', data: overview })
  }

  seedRooms(rooms: RoomsSnapshot): void {
    if (!this.state.rooms) this.apply({ type: 'rooms', data: rooms })
  }

  seedInstances(instances: InstancesSnapshot): void {
    if (!this.state.instances) this.apply({ type: 'instances', data: instances })
  }

  seedRoom(detail: RoomDetail): void {
    const watched = this.state.room
    if (watched?.code === detail.code.toUpperCase() && !watched.detail && !watched.gone) this.apply({ type: 'room', data: detail })
  }

  seedRoomGone(code: string): void {
    const watched = this.state.room
    if (watched?.code === code.toUpperCase() && !watched.detail) this.apply({ type: 'room-gone', data: { code } })
  }

  private apply(message: StreamMessage): void {
    const t = this.now()
    switch (message.type) {
      case 'overview':
        this.history.addOverview(message.data, t)
        this.set({ overview: message.data, samples: this.history.samples, serverOffsetMs: message.data.serverTime - t })
        return
      case 'rooms':
        this.history.addRooms(message.data)
        this.set({ rooms: message.data, roomsAt: t, samples: this.history.samples })
        return
      case 'instances':
        this.set({ instances: message.data })
        return
      case 'room': {
        const code = message.data.code.toUpperCase()
        // A message for a room we stopped watching can still be in flight after a switch.
        if (this.state.room?.code === code) this.set({ room: { code, detail: message.data, gone: false } })
        return
      }
      case 'room-gone': {
        const code = message.data.code.toUpperCase()
        const watched = this.state.room
        if (watched?.code === code) this.set({ room: { code, detail: watched.detail, gone: true } })
        return
      }
    }
  }

  private set(patch: Partial<LiveState>): void {
    this.state = { ...this.state, ...patch }
    for (const listener of this.listeners) listener()
  }
}
