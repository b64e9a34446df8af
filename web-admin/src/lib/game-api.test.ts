import { describe, expect, it } from 'vitest'
import { explain, GameApiError } from './game-api'

describe('explain', () => {
  it('tells a player whose name is taken to pick another, and passes other messages through', () => {
    expect(explain(new GameApiError(409, 'name_taken', 'someone in the room is already called Sam'))).toBe(
      'Someone in this room already has that name. Pick another one.',
    )
    expect(explain(new GameApiError(409, 'room_full', 'full'))).toBe('This room is full.')
    expect(explain(new GameApiError(400, 'bad_data', 'name must be 1 to 32 printable characters'))).toBe(
      'name must be 1 to 32 printable characters',
    )
  })
})
