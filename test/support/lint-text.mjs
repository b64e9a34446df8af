#!/usr/bin/env node
// Lints planted code with the repository's own eslint.config.mjs, through ESLint's Node API, and
// prints what ESLint says as JSON. It runs in a process of its own because ESLint loads the config
// with a dynamic import(), which jest's module sandbox refuses without --experimental-vm-modules.
//
// stdin:  [{ "filePath": "libs/room-engine/src/index.ts", "code": "import ...", "types": true }, ...]
// stdout: [[{ "ruleId": ..., "severity": ..., "line": ..., "message": ..., "fatal": ... }], ...]
//
// `types: false` lints without type information. It is for a path that no tsconfig includes yet,
// because the type-aware parser refuses those paths. The layering rules do not need types.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

// On CI (CI=true), typescript-eslint infers a single run and takes each file's program from disk.
// The planted text would then never be read, and the real file would be linted in its place.
process.env.TSESTREE_SINGLE_RUN = 'false';

const ROOT = resolve(import.meta.dirname, '../..');
const planted = JSON.parse(readFileSync(0, 'utf8'));
const typed = new ESLint({ cwd: ROOT });
const untyped = new ESLint({ cwd: ROOT, overrideConfig: [{ files: ['**/*.{ts,tsx}'], ...tseslint.configs.disableTypeChecked }] });
const out = [];
for (const { filePath, code, types = true } of planted) {
  const [result] = await (types ? typed : untyped).lintText(code, { filePath: resolve(ROOT, filePath) });
  out.push(
    result.messages.map(({ ruleId, severity, line, message, fatal }) => ({ ruleId, severity, line, message, fatal: fatal ?? false })),
  );
}
process.stdout.write(JSON.stringify(out));
