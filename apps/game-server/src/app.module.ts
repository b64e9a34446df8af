import { DynamicModule, Module } from '@nestjs/common';
import { GameRoomsModule, ServerRuntime } from '@app/server';
import { DEPLOYED_GAMES } from './games';

/**
 * This deployment: the game-room server with its games (trivia and cards, plus the test-only games
 * on a server started for tests). It runs on a runtime that server.ts opened (with the embedded
 * PostgreSQL when no DATABASE_URL is set, and settings from the environment), and server.ts also
 * starts and stops it.
 */
@Module({})
export class AppModule {
  static forRoot(runtime: ServerRuntime): DynamicModule {
    return { module: AppModule, imports: [GameRoomsModule.forRoot({ ...DEPLOYED_GAMES, runtime })] };
  }
}
