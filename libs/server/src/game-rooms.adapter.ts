import { INestApplication } from '@nestjs/common';
import { GATEWAY_OPTIONS, GatewayOptions, GameWsAdapter, SEAT_TOKENS, SeatTokens } from '@app/gateway';
import { GameMetrics } from '@app/observability';
import { RoomsService } from './rooms/rooms.service';

/**
 * Makes the WebSocket adapter of an app that imports GameRoomsModule. With it, `/ws` checks a
 * seat's token, the origin and the instance's limits before a socket exists. Nest takes an adapter
 * from the app, not from a module, so the app installs it before it listens:
 * `app.useWebSocketAdapter(gameRoomsAdapter(app))`.
 */
export function gameRoomsAdapter(app: INestApplication): GameWsAdapter {
  return new GameWsAdapter(
    app,
    app.get<SeatTokens>(SEAT_TOKENS),
    app.get<GatewayOptions>(GATEWAY_OPTIONS),
    app.get(RoomsService),
    app.get(GameMetrics),
  );
}
