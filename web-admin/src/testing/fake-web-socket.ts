import { act } from '@testing-library/react'

/** A WebSocket the test opens, feeds and breaks. Each one the page opens is kept in `sockets`. */
export class FakeWebSocket {
  static readonly sockets: FakeWebSocket[] = []
  readyState = 0
  onopen: ((e: unknown) => void) | null = null
  onmessage: ((e: { data: unknown }) => void) | null = null
  onclose: ((e: { code: number; reason: string }) => void) | null = null
  onerror: ((e: unknown) => void) | null = null
  readonly sent: { id: string; type: string; data: Record<string, unknown> }[] = []
  readonly url: string

  constructor(url: string) {
    this.url = url
    FakeWebSocket.sockets.push(this)
  }

  /** The socket the page opened last. */
  static latest(): FakeWebSocket {
    const last = FakeWebSocket.sockets.at(-1)
    if (!last) throw new Error('no WebSocket was opened')
    return last
  }

  send(text: string) {
    this.sent.push(JSON.parse(text))
  }
  close() {
    this.readyState = 3
  }
  /** Opens the socket and delivers the room's first frame, its state. */
  open(state: unknown) {
    act(() => {
      this.readyState = 1
      this.onopen?.({})
      this.deliver({ type: 'room.state', seq: 1, data: state })
    })
  }
  deliver(frame: unknown) {
    act(() => this.onmessage?.({ data: JSON.stringify(frame) }))
  }
  drop(code = 1006) {
    act(() => {
      this.readyState = 3
      this.onclose?.({ code, reason: '' })
    })
  }
}
