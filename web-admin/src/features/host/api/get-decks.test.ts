import { afterEach, describe, expect, it, vi } from 'vitest'
import { allDeckTokens, keepDeckToken } from '../../../lib/deck-tokens'
import { getDecks } from './get-decks'

const token = (n: number) => `${String(n).padStart(3, '0')}${'t'.repeat(40)}`
const deck = (id: string, builtin = false) => ({ id, name: id, builtin, questions: 1 })

describe(getDecks.name, () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    window.localStorage.clear()
  })

  it('presents the tokens as one Bearer list, follows next to the last page, and lists each deck once, built-in first', async () => {
    const calls: { url: string; authorization: string | null }[] = []
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        const authorization = new Headers(init.headers).get('authorization')
        calls.push({ url, authorization })
        const page = url.includes('cursor=b')
          ? { decks: [deck('c')], next: null }
          : { decks: [deck('builtin', true), deck('a'), deck('b')], next: 'b' }
        return new Response(JSON.stringify(page), { status: 200 })
      }),
    )
    expect((await getDecks([token(1), token(2)])).map((d) => d.id)).toEqual(['builtin', 'a', 'b', 'c'])
    expect(calls).toEqual([
      { url: '/api/decks?limit=100', authorization: `Bearer ${token(1)}, ${token(2)}` },
      { url: '/api/decks?limit=100&cursor=b', authorization: `Bearer ${token(1)}, ${token(2)}` },
    ])
  })

  it('sends at most 100 tokens a request, and none without tokens', async () => {
    const sent: number[] = []
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit = {}) => {
        const authorization = new Headers(init.headers).get('authorization')
        sent.push(authorization ? authorization.slice('Bearer '.length).split(', ').length : 0)
        return new Response(JSON.stringify({ decks: [deck('builtin', true)], next: null }), { status: 200 })
      }),
    )
    expect((await getDecks(Array.from({ length: 150 }, (_, i) => token(i)))).map((d) => d.id)).toEqual(['builtin'])
    expect(sent).toEqual([100, 50])
    sent.length = 0
    await getDecks([])
    expect(sent).toEqual([0])
  })
})

describe(allDeckTokens.name, () => {
  afterEach(() => window.localStorage.clear())

  it("gathers this browser's edit tokens, each once, and leaves out what is not one", () => {
    keepDeckToken('5b0c6f7e-1d2a-4c3b-9e8f-0a1b2c3d4e5f', token(1))
    keepDeckToken('6b0c6f7e-1d2a-4c3b-9e8f-0a1b2c3d4e5f', token(2))
    keepDeckToken('7b0c6f7e-1d2a-4c3b-9e8f-0a1b2c3d4e5f', token(2))
    keepDeckToken('8b0c6f7e-1d2a-4c3b-9e8f-0a1b2c3d4e5f', 'edited by hand')
    window.localStorage.setItem('something-else', token(3))
    expect(allDeckTokens().sort()).toEqual([token(1), token(2)])
  })
})
