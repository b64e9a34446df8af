import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { session } from '../../../lib/session'
import { resumeSession } from './resume-session'

type FetchCall = { url: string; init: RequestInit; location: string }

/** Answers each admin request by its method, and records where the address bar was when the request was sent. */
function mockFetch(answers: Partial<Record<'POST' | 'GET' | 'DELETE', number>>) {
  const calls: FetchCall[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init, location: window.location.pathname + window.location.search + window.location.hash })
      const status = answers[(init.method ?? 'GET') as 'POST' | 'GET' | 'DELETE'] ?? 500
      return status === 204
        ? new Response(null, { status })
        : new Response(JSON.stringify({ statusCode: status, code: status === 401 ? 'unauthorized' : 'x' }), { status })
    }),
  )
  return calls
}

const authorization = (call: FetchCall) => new Headers(call.init.headers).get('authorization')

describe(resumeSession.name, () => {
  beforeEach(() => {
    session.signedOut()
    window.history.replaceState(null, '', '/admin/')
  })
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('takes ?token= out of the address bar before any request, and trades it for a session', async () => {
    window.history.replaceState(null, '', '/admin/rooms?token=s3cret&x=1#top')
    const calls = mockFetch({ POST: 204 })
    await resumeSession(window.location, window.history, localStorage)
    expect(calls).toHaveLength(1)
    expect(calls[0]).toMatchObject({
      url: '/admin/api/session',
      init: { method: 'POST', credentials: 'same-origin' },
      location: '/admin/rooms?x=1#top',
    })
    expect(authorization(calls[0])).toBe('Bearer s3cret')
    expect(window.location.pathname + window.location.search + window.location.hash).toBe('/admin/rooms?x=1#top')
    expect(session.snapshot()).toMatchObject({ status: 'signed-in', notice: null })
    expect(JSON.stringify({ ...localStorage })).not.toContain('s3cret')
  })

  it('says so when the link’s token is refused, and still keeps it out of the address bar', async () => {
    window.history.replaceState(null, '', '/admin/?token=wrong')
    mockFetch({ POST: 401, GET: 200 })
    await resumeSession(window.location, window.history, localStorage)
    expect(window.location.search).toBe('')
    expect(session.snapshot()).toMatchObject({
      status: 'signed-out',
      notice: expect.stringMatching(/refused the admin token in that link/),
    })
  })

  it('without a link, asks the server whether the cookie is a session, sending no token', async () => {
    const calls = mockFetch({ GET: 200 })
    await resumeSession(window.location, window.history, localStorage)
    expect(calls.map((c) => [c.init.method, c.url, authorization(c)])).toEqual([['GET', '/admin/api/session', null]])
    expect(session.status).toBe('signed-in')

    mockFetch({ GET: 401 })
    session.signedOut()
    await resumeSession(window.location, window.history, localStorage)
    expect(session.snapshot()).toMatchObject({ status: 'signed-out', notice: null })
  })

  it('trades a token an older console kept in localStorage, then forgets it', async () => {
    localStorage.setItem('trivia-admin-token', 'kept-token')
    const calls = mockFetch({ POST: 204 })
    await resumeSession(window.location, window.history, localStorage)
    expect(authorization(calls[0])).toBe('Bearer kept-token')
    expect(localStorage.getItem('trivia-admin-token')).toBeNull()
    expect(session.status).toBe('signed-in')
  })

  it('falls back to the cookie when the kept token was refused, and forgets the token all the same', async () => {
    localStorage.setItem('trivia-admin-token', 'stale-token')
    const calls = mockFetch({ POST: 401, GET: 401 })
    await resumeSession(window.location, window.history, localStorage)
    expect(calls.map((c) => c.init.method)).toEqual(['POST', 'GET'])
    expect(localStorage.getItem('trivia-admin-token')).toBeNull()
    expect(session.snapshot()).toMatchObject({ status: 'signed-out', notice: null })
  })

  it('says the server could not be reached, rather than asking for a token it might accept', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    )
    await resumeSession(window.location, window.history, localStorage)
    expect(session.snapshot()).toMatchObject({ status: 'signed-out', notice: 'Could not reach the server: Failed to fetch' })
  })
})
