import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { session } from '../../../lib/session'
import { SignIn } from './sign-in'

describe(SignIn.name, () => {
  beforeEach(() => {
    session.signedOut()
  })
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('trades the token for a session with one POST, and keeps the token nowhere', async () => {
    const fetch = vi.fn(async () => new Response(null, { status: 204 }))
    vi.stubGlobal('fetch', fetch)
    const user = userEvent.setup()
    render(<SignIn />)
    await user.type(screen.getByLabelText('Admin token'), '  the-token  ')
    await user.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(session.status).toBe('signed-in')
    expect(fetch).toHaveBeenCalledTimes(1)
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit]
    expect([url, init.method, new Headers(init.headers).get('authorization')]).toEqual(['/admin/api/session', 'POST', 'Bearer the-token'])
    expect(localStorage.length).toBe(0)
    expect(sessionStorage.length).toBe(0)
  })

  it('says when the server refuses the token, and stays signed out', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ statusCode: 401, code: 'unauthorized' }), { status: 401 })),
    )
    const user = userEvent.setup()
    render(<SignIn />)
    await user.type(screen.getByLabelText('Admin token'), 'wrong')
    await user.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('The server refused this token.')
    expect(session.status).toBe('signed-out')
  })
})
