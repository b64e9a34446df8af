/** The HTTP half of the protocol, for tests, bots and the bench. */
export class HttpApi {
  constructor(readonly baseUrl: string) {}

  async request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: T }> {
    const res = await fetch(this.baseUrl + path, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  async createRoom(settings: Record<string, unknown>): Promise<{ roomId: string; code: string; hostToken: string }> {
    return this.expect(201, await this.request('POST', '/api/rooms', settings));
  }

  async join(code: string, name: string): Promise<{ playerId: string; playerToken: string }> {
    return this.expect(201, await this.request('POST', `/api/rooms/${code}/players`, { name }));
  }

  async spectate(code: string): Promise<{ spectatorToken: string }> {
    return this.expect(201, await this.request('POST', `/api/rooms/${code}/spectators`, {}));
  }

  private expect<T>(status: number, res: { status: number; body: T }): T {
    if (res.status !== status) throw new Error(`expected HTTP ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body;
  }
}
