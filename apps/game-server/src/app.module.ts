import { DynamicModule, Module } from '@nestjs/common';
import { GameRoomsModule, ServerRuntime } from '@app/server';
import { DEPLOYED_GAMES } from './games';

/**
 * This deployment: the game-room server with its games (trivia and cards, and the test-only games
 * on a server started for tests), on a runtime server.ts opened (embedded PostgreSQL when no
 * DATABASE_URL is set, settings from the environment) and starts and stops itself.
 */
@Module({})
export class AppModule {
  static forRoot(runtime: ServerRuntime): DynamicModule {
    return { module: AppModule, imports: [GameRoomsModule.forRoot({ ...DEPLOYED_GAMES, runtime })] };
  }
}
