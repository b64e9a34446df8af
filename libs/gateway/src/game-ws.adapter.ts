import { INestApplicationContext } from '@nestjs/common';
import { WsAdapter } from '@nestjs/platform-ws';
import { MAX_FRAME_BYTES } from '@app/protocol';
import { CLAIMS_KEY, VerifiedRequest } from './game.gateway';
import { GatewayOptions, RoomDirectory } from './room-directory';
import { roomMatches, SeatTokens } from './seat-token';
import { noWireObserver, WireObserver } from './wire-observer';

// The Retry-After for an upgrade past the instance's socket cap. It is short because sockets come and go by the second.
const FULL_RETRY_AFTER_SECONDS = '5';

type Verdict = (ok: boolean, code?: number, message?: string, headers?: Record<string, string>) => void;

/**
 * The ws adapter, with the checks that must happen before a socket exists. A missing, forged or
 * altered token is refused with HTTP 401, and an Origin that is not allowed with 403. A socket
 * whose room cannot be served here now (PostgreSQL away, the room held by another instance, a
 * drain) is refused with 503 and `Retry-After`, so that the client backs off instead of being
 * accepted and closed in a loop. Frames above 16 KiB close the socket with 1009 (ws enforces
 * maxPayload). Past the instance's cap on sockets (MAX_SOCKETS, counting open ones and upgrades
 * being decided), an upgrade gets 503 with `Retry-After` before the token is even read.
 */
export class GameWsAdapter extends WsAdapter {
  constructor(
    app: INestApplicationContext,
    private readonly tokens: SeatTokens,
    private readonly options: GatewayOptions,
    private readonly directory: RoomDirectory,
    private readonly observer: WireObserver = noWireObserver,
  ) {
    // The gateway reads frames itself, so Nest's {event, data} routing is not used.
    super(app, { messageParser: () => undefined });
  }

  /**
   * The gateway declares no @SubscribeMessage handlers, so Nest's routing would only cost time:
   * for every frame it builds a MessageEvent and runs an rxjs pipeline, only to find that no handler
   * wants it. When there are handlers, this routes as Nest does.
   */
  override bindMessageHandlers(client: any, handlers: { message: string }[], transform: (data: any) => any): void {
    if (handlers.length > 0) super.bindMessageHandlers(client, handlers as any, transform);
  }

  override create(port: number, options: Record<string, unknown> = {}): any {
    let deciding = 0;
    const server = super.create(port, {
      ...options,
      maxPayload: MAX_FRAME_BYTES,
      verifyClient: (info: { origin: string; req: VerifiedRequest }, done: Verdict) => {
        if (!this.directory.accepting) return done(false, 503, 'Shutting down', { 'Retry-After': '1' });
        const max = this.options.maxSockets;
        if (max > 0 && (server.clients as Set<unknown>).size + deciding >= max) {
          this.observer.socketRefused();
          return done(false, 503, 'Too many sockets on this instance', { 'Retry-After': FULL_RETRY_AFTER_SECONDS });
        }
        const origin = info.origin;
        // The server's own pages are always allowed, because their Origin is the Host they connect to.
        if (
          origin &&
          this.options.allowedOrigins.length > 0 &&
          !this.options.allowedOrigins.includes(origin) &&
          !isSameOrigin(origin, info.req.headers.host)
        ) {
          return done(false, 403, 'Origin not allowed');
        }
        const params = new URL(info.req.url ?? '/', 'http://x').searchParams;
        const check = this.tokens.check(params.get('token'));
        // A `room` that is not the token's own is refused like a bad token: 401, and no socket.
        if (check.ok || check.reason === 'expired') {
          if (!roomMatches(check.claims, params.get('room'))) return done(false, 401, 'Unauthorized');
        }
        if (!check.ok && check.reason === 'expired') {
          // Accept the socket so that it can be closed with 4001. The client then learns that its
          // token is stale, and that it should not retry.
          info.req[CLAIMS_KEY] = { claims: check.claims, expired: true };
          return done(true);
        }
        if (!check.ok) return done(false, 401, 'Unauthorized');
        info.req[CLAIMS_KEY] = { claims: check.claims, expired: false };
        // Count the upgrade while its room is made live, so that a burst of upgrades cannot all pass the cap at once.
        deciding++;
        this.directory
          .admit(check.claims)
          .then(
            (admitted) =>
              admitted.ok
                ? done(true)
                : done(false, admitted.status, admitted.message, { 'Retry-After': String(admitted.retryAfterSeconds) }),
            () => done(false, 503, 'Room unavailable', { 'Retry-After': '2' }),
          )
          .finally(() => deciding--);
      },
    });
    return server;
  }
}

function isSameOrigin(origin: string, host: string | undefined): boolean {
  return host !== undefined && (origin === `http://${host}` || origin === `https://${host}`);
}
