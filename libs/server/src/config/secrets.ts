import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A secret shorter than this can be guessed, or brute-forced offline from one seat token. */
export const MIN_SECRET_LENGTH = 32;

// Every literal secret this repository ever shipped (in compose fallbacks, docs and tests). Anyone
// can read them, so a server configured with one is as open as a server without one.
const SHIPPED_PLACEHOLDERS = [
  'change-me',
  'change-me-to-a-long-random-secret',
  'changeme',
  'test-admin-token',
  'test-secret-0123456789abcdef',
  'test-secret-0123456789abcdef-0123456789',
  'another-secret-entirely-1234',
  'another-secret-entirely-0123456789abcdef',
];

/**
 * Says what is wrong with a secret that an attacker could know or guess: it is shorter than 32
 * characters, or it is one of the placeholders shipped in this repository (in any case). Returns
 * undefined when the secret will do. The message is written to follow the secret's name
 * (`TOKEN_SECRET is 31 characters; ...`).
 */
export function secretProblem(value: string): string | undefined {
  const lower = value.trim().toLowerCase();
  if (SHIPPED_PLACEHOLDERS.includes(lower) || lower.includes('change-me') || lower.includes('changeme')) {
    return 'is a placeholder published in this repository; set a random one (e.g. openssl rand -base64 32) or unset it to have one generated';
  }
  if (value.length < MIN_SECRET_LENGTH) {
    return `is ${value.length} characters; it must be at least ${MIN_SECRET_LENGTH} (e.g. openssl rand -base64 32), or unset it to have one generated`;
  }
  return undefined;
}

/** Returns the secret itself, or throws an error that names the variable (or file) and what is wrong. */
export function checkSecret(name: string, value: string): string {
  const problem = secretProblem(value);
  if (problem) throw new Error(`${name} ${problem}`);
  return value;
}

export interface KeptSecret {
  readonly value: string;
  readonly file: string;
  /** True when this start generated the secret, because the file did not exist. */
  readonly generated: boolean;
}

/**
 * Returns a secret that is generated once and kept in `dataDir/<name>` (mode 0600), so that what it
 * signed or authorised survives a restart. A kept file is checked like a variable, so a weak secret
 * edited into it is refused.
 */
export function keptSecret(dataDir: string, name: string): KeptSecret {
  const file = join(dataDir, name);
  if (existsSync(file)) return { value: checkSecret(file, readFileSync(file, 'utf8').trim()), file, generated: false };
  mkdirSync(dataDir, { recursive: true });
  const value = randomBytes(32).toString('base64url');
  // The secret is written aside, then linked into place. When two servers start on one DATA_DIR,
  // the second finds the first one's complete file (its link fails with EEXIST) and keeps that
  // secret.
  const aside = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(aside, value + '\n', { mode: 0o600 });
  chmodSync(aside, 0o600);
  try {
    linkSync(aside, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return keptSecret(dataDir, name);
    throw err;
  } finally {
    unlinkSync(aside);
  }
  return { value, file, generated: true };
}
