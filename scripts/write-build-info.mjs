#!/usr/bin/env node
// This is the last step of `npm run build`. It stamps the version and git sha this build was made
// from beside the compiled server, so that /health and /metrics report the build rather than
// whatever the tree says when the server starts. In an image, which has no .git, pass BUILD_SHA.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const root = process.cwd();
const require = createRequire(import.meta.url);
// The script uses the compiled module the server itself uses, so both read git and package.json the same way.
const { BUILD_INFO_FILE, sourceBuildInfo } = require(join(root, 'dist/apps/game-server/libs/server/src/config/build-info.js'));
const info = sourceBuildInfo(root, process.env);
const file = join(root, BUILD_INFO_FILE);
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, JSON.stringify(info) + '\n');
process.stdout.write(`build ${info.version} ${info.sha} stamped in ${BUILD_INFO_FILE}\n`);
