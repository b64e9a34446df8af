import { describe, expect, expectTypeOf, it } from 'vitest'
import type { z } from 'zod'
import type { JoinedRoom } from '@game-rooms/client'
import { JoinRoomBody, NAME_MAX } from '@game-rooms/client'
import type { Seat } from '../features/play/api/join-room'
import type { NewRoom } from '../features/host/api/create-room'
import type { FinishedGame } from '../features/finished/api/finished-types'
import type { FinishedGame as FinishedGameSchema } from '@game-rooms/client'
import type { TriviaSettingsBody } from './http-types'

// The console's HTTP types are inferred from the server's schemas (packages/client/src/http/). The
// build (`tsc -b`) fails here if a page's type and the schema part ways. The server's side of the
// same limits is tested in apps/game-server/test/http-schemas.e2e-spec.ts.
describe('the console’s HTTP types', () => {
  it('are inferred from the schemas the server validates with', () => {
    expectTypeOf<Seat>().toEqualTypeOf<JoinedRoom>()
    expectTypeOf<FinishedGame>().toEqualTypeOf<z.infer<typeof FinishedGameSchema>>()
    expectTypeOf<NewRoom>().toEqualTypeOf<TriviaSettingsBody>()
    // Defaults make a setting optional to send.
    expectTypeOf<NewRoom['questionCount']>().toEqualTypeOf<number | undefined>()
    expectTypeOf<z.input<typeof JoinRoomBody>>().toEqualTypeOf<{ name: string }>()
  })

  it('and the same schema refuses in the browser what the server refuses', () => {
    expect(JoinRoomBody.safeParse({ name: 'n'.repeat(NAME_MAX) }).success).toBe(true)
    expect(JoinRoomBody.safeParse({ name: 'n'.repeat(NAME_MAX + 1) }).error?.issues[0].message).toBe(
      `must be 1 to ${NAME_MAX} printable characters`,
    )
  })
})
