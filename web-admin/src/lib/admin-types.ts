// The admin API's shapes, inferred from the zod schemas the server documents them with
// (packages/client/src/http/admin.ts, through the client package). One edit there changes the
// server's document and these types together. Every fetcher and the stream use these types.

import type { z } from 'zod'
import type {
  CommandStat as CommandStatSchema,
  ErrorBody,
  InstanceRow,
  InstancesSnapshot,
  OpenQuestion,
  Overview,
  Phase,
  RoomCommand,
  RoomDetail,
  RoomPlayer,
  RoomRow,
  RoomsSnapshot,
} from '@game-rooms/client'

export type { InstanceRow, InstancesSnapshot, OpenQuestion, Overview, Phase, RoomCommand, RoomDetail, RoomPlayer, RoomRow, RoomsSnapshot }

export type CommandStat = z.infer<typeof CommandStatSchema>
export type SocketCounts = Overview['sockets']
export type PoolState = Overview['pool']

/** The error body every admin endpoint answers with (fields absent when a proxy answered instead). */
export type ApiErrorBody = Partial<ErrorBody>
