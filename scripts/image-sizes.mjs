#!/usr/bin/env node
// What the server makes of pictures: each file re-encoded by the server's own ImageEncoder (the
// built one: run `npx nest build game-server` first), with its size before and after, its pixels
// before and after, and the milliseconds it took. The README's sizing figures come from this.
// Usage: node scripts/image-sizes.mjs FILE...
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
// The built encoder is found at run time, as the other scripts find the built server: it is what
// `nest build` wrote, not a module of the source tree.
const BUILT_ENCODER = resolve(dirname(fileURLToPath(import.meta.url)), '../dist/apps/game-server/libs/server/src/images/image-encoder.js');
const { ImageEncoder } = require(BUILT_ENCODER);
const sharp = require('sharp');

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node scripts/image-sizes.mjs FILE...');
  process.exit(2);
}
const encoder = new ImageEncoder();
for (const file of files) {
  const input = readFileSync(file);
  const before = await sharp(input).metadata();
  const started = performance.now();
  try {
    const out = await encoder.encode(input);
    const ms = performance.now() - started;
    console.log(
      `${basename(file)}: ${before.format} ${before.width}x${before.height} ${(input.length / 1000).toFixed(1)} KB -> ` +
        `${out.contentType} ${out.width}x${out.height} ${(out.bytes.length / 1000).toFixed(1)} KB in ${ms.toFixed(0)} ms`,
    );
  } catch (err) {
    console.log(`${basename(file)}: refused: ${err.code ?? ''} ${err.message}`);
  }
}
