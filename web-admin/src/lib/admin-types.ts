// The admin API's shapes, inferred from the zod schemas the server documents them with
// (libs/protocol/src/http/admin.ts, through @app/protocol's browser door): one edit there changes
// the server's document and these types together. Every fetcher and the stream speak these.

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
} from '@app/protocol'

export type { InstanceRow, InstancesSnapshot, OpenQuestion, Overview, Phase, RoomCommand, RoomDetail, RoomPlayer, RoomRow, RoomsSnapshot }

export type CommandStat = z.infer<typeof CommandStatSchema>
export type SocketCounts = Overview['sockets']
export type PoolState = Overview['pool']

/** The error body every admin endpoint answers with (fields absent when a proxy answered instead). */
export type ApiErrorBody = Partial<ErrorBody>
