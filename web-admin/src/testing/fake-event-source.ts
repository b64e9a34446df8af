import type { EventSourceLike } from '../lib/admin-stream'

/** An EventSource the test drives: open it, send it events, fail it. */
export class FakeEventSource implements EventSourceLike {
  static readonly instances: FakeEventSource[] = []
  readyState = 0
  onopen: EventSourceLike['onopen'] = null
  onerror: EventSourceLike['onerror'] = null
  closed = false
  private readonly listeners = new Map<string, ((ev: MessageEvent<string>) => void)[]>()
  readonly url: string

  constructor(url: string) {
    this.url = url
    FakeEventSource.instances.push(this)
  }

  static latest(): FakeEventSource {
    const last = FakeEventSource.instances.at(-1)
    if (!last) throw new Error('no EventSource was created')
    return last
  }

  static reset(): void {
    FakeEventSource.instances.length = 0
  }

  addEventListener(type: string, listener: (ev: MessageEvent<string>) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener])
  }

  close(): void {
    this.closed = true
    this.readyState = 2
  }

  open(): void {
    this.readyState = 1
    this.onopen?.call(this, new Event('open'))
  }

  emit(type: string, data: unknown): void {
    const event = new MessageEvent<string>(type, { data: JSON.stringify(data) })
    for (const listener of this.listeners.get(type) ?? []) listener(event)
  }

  /** Simulates a network error, after which a real EventSource retries by itself. */
  drop(): void {
    this.readyState = 0
    this.onerror?.call(this, new Event('error'))
  }

  /** Simulates an HTTP error such as 401, after which a real EventSource has given up. */
  fail(): void {
    this.readyState = 2
    this.onerror?.call(this, new Event('error'))
  }
}
