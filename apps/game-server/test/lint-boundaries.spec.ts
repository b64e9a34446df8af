import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

// The layering is configuration (eslint.config.mjs), and configuration can rot silently: a
// renamed folder or a resolver that stops resolving `@app/*` makes every import "unknown" and
// the linter passes everything. So this plants the wrong arrows through ESLint's own API, with
// the repository's own config, at real paths inside the layers, and expects each to be refused,
// and the right arrows to pass.

const ROOT = resolve(__dirname, '../../..');

interface Message {
  ruleId: string | null;
  severity: number;
  line: number;
  message: string;
  fatal: boolean;
}

const PLANTED = {
  engineToGame: ['libs/room-engine/src/index.ts', "import { trivia } from '@app/games/trivia';\nexport const planted = trivia;\n"],
  gameToPersistence: [
    'libs/games/trivia/src/index.ts',
    "import { JournalStore } from '@app/persistence';\nexport const planted = JournalStore;\n",
  ],
  gameToGateway: ['libs/games/cards/src/index.ts', "export * from '@app/gateway';\n"],
  persistenceToGameByAlias: ['libs/persistence/src/index.ts', "import { cards } from '@app/games/cards';\nexport const planted = cards;\n"],
  persistenceToGameByPath: [
    'libs/persistence/src/index.ts',
    "import { cards } from '../../games/cards/src';\nexport const planted = cards;\n",
  ],
  gatewayToGame: ['libs/gateway/src/index.ts', "import { ticTacToe } from '@app/games/tictactoe';\nexport const planted = ticTacToe;\n"],
  // The server module serves the games it is given: it names none, and knows no app that uses it.
  serverToGame: ['libs/server/src/index.ts', "import { trivia } from '@app/games/trivia';\nexport const planted = trivia;\n"],
  serverToApp: [
    'libs/server/src/index.ts',
    "import { GAMES } from '../../../apps/game-server/src/games';\nexport const planted = GAMES;\n",
  ],
  appToServer: [
    'apps/game-server/src/app.module.ts',
    "import { GameRoomsModule } from '@app/server';\nexport const fine = GameRoomsModule;\n",
  ],
  protocolToEngine: ['libs/protocol/src/index.ts', "import { RoomActor } from '@app/room-engine';\nexport const planted = RoomActor;\n"],
  gameToIo: [
    'libs/games/trivia/src/index.ts',
    [
      "import { readFileSync } from 'node:fs';",
      "import { Injectable } from '@nestjs/common';",
      "import { Pool } from 'pg';",
      'export const planted = [readFileSync, Injectable, Pool];',
      '',
    ].join('\n'),
  ],
  engineToProtocol: ['libs/room-engine/src/index.ts', "import { Status } from '@app/protocol';\nexport const fine = Status;\n"],
  gameToEngine: ['libs/games/trivia/src/index.ts', "import { RoomActor } from '@app/room-engine';\nexport const fine = RoomActor;\n"],
  // A game's page may name its game's body types, and take none of its code.
  consoleGameType: [
    'web-admin/src/lib/http-types.ts',
    "import type { TRIVIA_SETTINGS } from '../../../libs/games/trivia/src/trivia.settings-schema'\nexport type Planted = typeof TRIVIA_SETTINGS\n",
  ],
  consoleGameValue: [
    'web-admin/src/lib/http-types.ts',
    "import { TRIVIA_SETTINGS } from '../../../libs/games/trivia/src/trivia.settings-schema'\nexport const planted = TRIVIA_SETTINGS\n",
  ],
  // The published client is the protocol layer too (it moves there from libs/protocol). No
  // tsconfig includes that folder on every branch yet, so this one is linted without types.
  clientToEngine: [
    'packages/client/src/planted.ts',
    "import { RoomActor } from '@app/room-engine';\nexport const planted = RoomActor;\n",
    false,
  ],
} satisfies Record<string, [string, string] | [string, string, boolean]>;

type Case = keyof typeof PLANTED;

const boundaryErrors = (messages: Message[]) => messages.filter((m) => m.ruleId === 'boundaries/dependencies' && m.severity === 2);

describe('the linter enforces the layering', () => {
  let results: Record<Case, Message[]>;
  beforeAll(() => {
    // One process for every case: the type-aware rules build the program once.
    const cases = Object.keys(PLANTED) as Case[];
    const input = JSON.stringify(
      cases.map((c) => {
        const [filePath, code, types] = PLANTED[c];
        return { filePath, code, types };
      }),
    );
    const out = JSON.parse(
      execFileSync(process.execPath, [resolve(ROOT, 'test/support/lint-text.mjs')], {
        cwd: ROOT,
        input,
        encoding: 'utf8',
        timeout: 150_000,
      }),
    ) as Message[][];
    results = Object.fromEntries(cases.map((c, i) => [c, out[i]])) as Record<Case, Message[]>;
  }, 180_000);

  it('parses every planted file (a parse error would hide every rule)', () => {
    for (const messages of Object.values(results)) expect(messages.filter((m) => m.fatal)).toEqual([]);
  });

  it('refuses an import from the engine into a game', () => {
    expect(boundaryErrors(results.engineToGame)).toEqual([
      expect.objectContaining({
        line: 1,
        message: expect.stringMatching(/from elements of type "engine" to elements of type "game" .*game="trivia"/),
      }),
    ]);
  });

  it('refuses a game importing persistence or the gateway', () => {
    expect(boundaryErrors(results.gameToPersistence)).toEqual([
      expect.objectContaining({ message: expect.stringContaining('to elements of type "persistence"') }),
    ]);
    expect(boundaryErrors(results.gameToGateway)).toEqual([
      expect.objectContaining({ message: expect.stringContaining('to elements of type "gateway"') }),
    ]);
  });

  it('refuses persistence or the gateway importing a game, by alias or by relative path', () => {
    for (const c of ['persistenceToGameByAlias', 'persistenceToGameByPath'] as const) {
      expect(boundaryErrors(results[c])).toEqual([
        expect.objectContaining({ message: expect.stringContaining('from elements of type "persistence" to elements of type "game"') }),
      ]);
    }
    expect(boundaryErrors(results.gatewayToGame)).toEqual([
      expect.objectContaining({ message: expect.stringContaining('from elements of type "gateway" to elements of type "game"') }),
    ]);
  });

  it('refuses the server module naming a game or importing an app, and lets an app import it', () => {
    expect(boundaryErrors(results.serverToGame)).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(/from elements of type "server" to elements of type "game" .*game="trivia"/),
      }),
    ]);
    expect(boundaryErrors(results.serverToApp)).toEqual([
      expect.objectContaining({ message: expect.stringContaining('from elements of type "server" to elements of type "app"') }),
    ]);
    expect(results.appToServer).toEqual([]);
  });

  it('refuses the protocol, in libs/protocol or packages/client, importing another lib', () => {
    for (const c of ['protocolToEngine', 'clientToEngine'] as const) {
      expect(boundaryErrors(results[c])).toEqual([
        expect.objectContaining({ message: expect.stringContaining('from elements of type "protocol" to elements of type "engine"') }),
      ]);
    }
  });

  it('refuses a game the modules that do I/O: Node built-ins, Nest, pg', () => {
    expect(results.gameToIo.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.line)).toEqual([1, 2, 3]);
  });

  it("lets the console name a game's types but not import its code", () => {
    expect(results.consoleGameType).toEqual([]);
    expect(boundaryErrors(results.consoleGameValue)).toEqual([
      expect.objectContaining({ message: expect.stringContaining('from elements of type "console" to elements of type "game"') }),
    ]);
  });

  it('lets the arrows that point the right way through', () => {
    expect(results.engineToProtocol).toEqual([]);
    expect(results.gameToEngine).toEqual([]);
  });
});
