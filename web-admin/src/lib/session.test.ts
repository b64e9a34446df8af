import { describe, expect, it } from 'vitest'
import { Session } from './session'

describe(Session.name, () => {
  it('starts checking, counts each sign-in, and keeps no token', () => {
    const session = new Session()
    expect(session.snapshot()).toEqual({ status: 'checking', notice: null, epoch: 0 })
    session.signedIn()
    session.signedOut()
    session.signedIn()
    expect(session.snapshot()).toEqual({ status: 'signed-in', notice: null, epoch: 2 })
    expect(Object.keys(session.snapshot()).sort()).toEqual(['epoch', 'notice', 'status'])
  })

  it('signs out on a refusal and says why, but a refusal while signed out changes nothing', () => {
    const session = new Session()
    session.signedOut()
    session.refuse()
    expect(session.snapshot()).toEqual({ status: 'signed-out', notice: null, epoch: 0 })
    session.signedIn()
    session.refuse()
    expect(session.snapshot()).toEqual({ status: 'signed-out', notice: expect.stringMatching(/session has ended/), epoch: 1 })
  })
})
