import { describe, expect, it } from 'vitest'
import { Session } from './session'

describe(Session.name, () => {
  it('signs in from ?token= and takes it out of the address bar', () => {
    window.history.replaceState(null, '', '/admin/rooms?token=s3cret&x=1#top')
    const session = new Session(localStorage)
    session.adoptTokenFromUrl(window.location, window.history)
    expect(session.token).toBe('s3cret')
    expect(window.location.pathname + window.location.search + window.location.hash).toBe('/admin/rooms?x=1#top')
    expect(new Session(localStorage).token).toBe('s3cret')
  })

  it('forgets a refused token and says why', () => {
    const session = new Session(localStorage)
    session.signIn('old')
    session.refuse()
    expect(session.snapshot()).toEqual({ token: null, notice: expect.stringMatching(/refused/) })
    expect(new Session(localStorage).token).toBeNull()
  })
})
