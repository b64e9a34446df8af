// Writes one entry point per game wire the build compiled (dist/games/<game>.js and .d.ts), so
// that `@game-rooms/client/<game>` resolves through the package's `./*` export. The games are
// found by their folders; nothing here names one.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const out = join(import.meta.dirname, '..', 'dist', 'games');
const entries = [];
for (const game of readdirSync(out, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)) {
  const wire = `./${game}/src/${game}.wire.js`;
  const table = `./${game}/index.js`;
  const target = existsSync(join(out, wire)) ? wire : existsSync(join(out, table)) ? table : undefined;
  if (!target) continue;
  const line = `export * from '${target}';\n`;
  writeFileSync(join(out, `${game}.js`), line);
  writeFileSync(join(out, `${game}.d.ts`), line);
  entries.push(game);
}
// Quiet otherwise: `npm pack --json` runs this build, and its output must stay JSON.
if (entries.length === 0) throw new Error(`no game wire was built into ${out}`);
