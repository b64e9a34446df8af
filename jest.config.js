// Unit tests beside the code (libs/*/src/*.spec.ts); end-to-end tests in apps/game-server/test.
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/packages'],
  // Not the package's built copy: its tests run on its source.
  modulePathIgnorePatterns: ['<rootDir>/packages/[^/]+/dist/'],
  testRegex: '.*\\.(spec|e2e-spec)\\.ts$',
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleNameMapper: {
    // The client package is ESM: its relative imports name the .js its build emits.
    '^(\\.{1,2}/.*)\\.js$': '$1',
    // The server, the games and the bot kit take the client package from its source (CommonJS here).
    '^@game-rooms/client$': '<rootDir>/packages/client/src',
    // The engine's entry for game authors' tests (testGame).
    '^@app/room-engine/testing$': '<rootDir>/libs/room-engine/src/testing',
    '^@app/(protocol|room-engine|persistence|gateway|observability|bot-kit|server)$': '<rootDir>/libs/$1/src',
    // A game's folder is found by its name: a new game needs no line here.
    '^@app/games/([a-z0-9-]+)$': '<rootDir>/libs/games/$1/src',
    '^@app/wire-codes$': '<rootDir>/libs/games/wire-codes',
  },
  // Every test process is a process started for tests: it serves the games that live only in tests.
  setupFiles: ['<rootDir>/test/setup-env.ts'],
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  testTimeout: 30000,
};
