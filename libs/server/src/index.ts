// This file is `@game-rooms/server`: the game-room server as a Nest module
// (`GameRoomsModule.forRoot({ games, database })`), and what a game author and an app that serves
// games need beside it.
import 'reflect-metadata';
export * from './game-rooms.module';
export { GameRoomsLifecycle } from './game-rooms.lifecycle';
export { gameRoomsAdapter } from './game-rooms.adapter';
export { GameRegistry, GameRoomsGames, GameRoutes, OpenedGameRoom, labelVocabulary, serverCodes } from './rooms/games';
export { RoomsService } from './rooms/rooms.service';
export { ServerConfig, configOf, readConfig, readDatabaseConfig, statementTimeoutMs } from './config/server-config';
export { BuildInfo, readBuildInfo } from './config/build-info';
export { JsonLog, logContext } from './config/json-log';
export { announceAdminToken } from './config/admin-token-notice';
export { lanUrls, startBanner } from './config/network-addresses';
export { setHeapGrowth } from './config/heap-growth';
export { ProcessFaults } from './config/process-faults';
// A game is written with the engine's `defineGame`, and reads its bodies with the protocol's fields.
export * from '@app/room-engine';
export { decimalField, jsonObject, printable, printableField, RoomErrorCode, RoomException } from '@app/protocol';
// What apps/game-server puts around the module: its HTTP set-up, the API document, the instance's name.
export { apiCors } from './api/api-cors';
export { describeApi } from './api/openapi';
export { DECK_CSV_MAX_BYTES } from './decks/deck-limits';
export { FrontDoor } from './limits/front-door';
export { InstanceIdentity } from './cluster/instance-identity';
