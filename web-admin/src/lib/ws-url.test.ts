import { describe, expect, it } from 'vitest'
import { wsUrl } from './use-seat'

const at = (pathname: string, protocol = 'http:') => ({ protocol, host: 'rooms.example:8080', pathname })

describe(wsUrl.name, () => {
  it('puts the page’s room code beside the token, so a proxy routes the socket where it routed the page', () => {
    expect(wsUrl('t.k', at('/play/ABC234'))).toBe('ws://rooms.example:8080/ws?room=ABC234&token=t.k')
    expect(wsUrl('t.k', at('/host/ABC234/'))).toBe('ws://rooms.example:8080/ws?room=ABC234&token=t.k')
    expect(wsUrl('t.k', at('/table/XYZ789', 'https:'))).toBe('wss://rooms.example:8080/ws?room=XYZ789&token=t.k')
  })

  it('sends no room from a page without one, and encodes what it sends', () => {
    expect(wsUrl('a+b/c', at('/host'))).toBe('ws://rooms.example:8080/ws?token=a%2Bb%2Fc')
    expect(wsUrl('t', at('/'))).toBe('ws://rooms.example:8080/ws?token=t')
    expect(wsUrl('t', at('/play/A&B'))).toBe('ws://rooms.example:8080/ws?room=A%26B&token=t')
  })
})
