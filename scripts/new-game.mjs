#!/usr/bin/env node
// `npm run new-game -- <name> [--register]` writes libs/games/<name>/ from the template in
// scripts/new-game/: a tiny complete game on defineGame, its wire, and its spec through testGame.
// With --register it also adds the game's one line to the server's registry. Before it writes
// anything, it refuses a bad name and a name that a folder already has. `--root <dir>` writes into
// another copy of the repository, as the script's test does.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';

const HERE = dirname(fileURLToPath(import.meta.url));
const TEMPLATE = join(HERE, 'new-game');
const REGISTRY = 'apps/game-server/src/games.ts';
// A game's name is its folder, its `kind`, its events' prefix and, unchanged, its identifier.
const NAME = /^[a-z][a-z0-9]{2,23}$/;
const FILES = {
  'wire.ts.tmpl': '__name__.wire.ts',
  'game.ts.tmpl': '__name__.game.ts',
  'spec.ts.tmpl': '__name__.spec.ts',
  'index.ts.tmpl': 'index.ts',
};

function fail(message) {
  process.stderr.write(`new-game: ${message}\n`);
  process.exit(1);
}

const args = process.argv.slice(2);
const register = args.includes('--register');
const rootAt = args.indexOf('--root');
const root = rootAt >= 0 ? args[rootAt + 1] : join(HERE, '..');
const names = args.filter((a, i) => !a.startsWith('--') && (rootAt < 0 || i !== rootAt + 1));
if (names.length !== 1) fail('usage: npm run new-game -- <name> [--register]');
const [name] = names;
if (!NAME.test(name)) fail(`'${name}' is not a game's name: 3 to 24 lower-case letters and digits, a letter first`);
const folder = join(root, 'libs/games', name);
if (existsSync(folder)) fail(`'${name}' is taken: ${relative(root, folder)} exists`);

const title = name[0].toUpperCase() + name.slice(1);
const fill = (text) =>
  text
    .replaceAll('__CONST__', name.toUpperCase())
    .replaceAll('__Title__', title)
    .replaceAll('__camel__', name)
    .replaceAll('__name__', name);

// The registry's edit is worked out first, so that when the script cannot read the registry, nothing is written.
let registry;
if (register) {
  const path = join(root, REGISTRY);
  const source = readFileSync(path, 'utf8');
  const imports = [...source.matchAll(/^import .* from '@app\/games\/[a-z0-9-]+';\n/gm)];
  const list = /(export const GAMES: readonly GameModule\[\] = \[)([^\n]*?)(\.\.\.\(SERVES_TEST_GAMES)/;
  if (!imports.length || !list.test(source)) fail(`${REGISTRY} has no list of games this script can read: add the line by hand`);
  const last = imports.at(-1);
  const at = last.index + last[0].length;
  const withImport = `${source.slice(0, at)}import { ${name} } from '@app/games/${name}';\n${source.slice(at)}`;
  registry = { path, source: withImport.replace(list, `$1$2${name}, $3`) };
}

// Wherever the script writes, it lays its files out the way `npm test` checks them (with the
// repository's .prettierrc.json).
const layout = (await prettier.resolveConfig(join(HERE, '..', 'libs', 'layout.ts'))) ?? {};
const laidOut = (text, path) => prettier.format(text, { ...layout, filepath: path });
mkdirSync(join(folder, 'src'), { recursive: true });
for (const [template, file] of Object.entries(FILES)) {
  const path = join(folder, 'src', fill(file));
  writeFileSync(path, await laidOut(fill(readFileSync(join(TEMPLATE, template), 'utf8')), path));
}
if (registry) writeFileSync(registry.path, await laidOut(registry.source, registry.path));
process.stdout.write(
  `new-game: wrote ${relative(root, folder)}/src (${Object.values(FILES).map(fill).join(', ')})${registry ? `, and registered it in ${REGISTRY}` : ''}\n`,
);
process.stdout.write(`new-game: its spec runs with \`npx jest libs/games/${name}\`\n`);
