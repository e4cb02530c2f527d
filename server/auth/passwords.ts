import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { dictionary } from '@zxcvbn-ts/language-common';
import argon2 from 'argon2';
import { Piscina } from 'piscina';
import type { AuthConfig } from './auth-config';
import { errors } from './errors';

/**
 * bcrypt at cost 10, as GoTrue, so hashes move to and from Supabase unchanged.
 * Hashing runs in a pool of worker threads (one per core, lowered priority),
 * not on libuv's thread pool: there a burst of sign-ins would queue in front
 * of the file reads and WebCrypto signing every other request needs, and
 * starve the event loop of CPU. Imported argon2 hashes verify with `argon2`
 * (rare: each is replaced by bcrypt at the first sign-in).
 */
const BCRYPT_COST = 10;
const MAX_PASSWORD_BYTES = 72;

/** The worker module: beside this file in the sources, under `auth/` beside the bundled entry. */
function workerFile(): string {
  const candidates = [
    './password-worker.mjs',
    './auth/password-worker.mjs',
    '../auth/password-worker.mjs',
  ];
  for (const candidate of candidates) {
    const file = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(file)) return file;
  }
  throw new Error('password-worker.mjs not found next to the server code');
}

/**
 * Hashes waiting for a thread, per thread, before new ones are refused with
 * 429: at tens of milliseconds each, a full queue is about two seconds of work.
 * Without a bound a flood of sign-ins would queue without end, each waiting
 * request holding its socket and body.
 */
const QUEUED_PER_THREAD = 32;

let pool: Piscina | undefined;
function passwordPool(): Piscina {
  if (!pool) {
    const threads = Math.max(1, availableParallelism());
    pool = new Piscina({
      filename: workerFile(),
      minThreads: 0,
      maxThreads: threads,
      maxQueue: threads * QUEUED_PER_THREAD,
      idleTimeout: 60_000,
      niceIncrement: 10,
    });
  }
  return pool;
}

let tasksRun = 0;
/** How many bcrypt hashes and comparisons this process has asked the pool for (tests read it). */
export function passwordTasksRun(): number {
  return tasksRun;
}

async function runTask<T>(task: object, name: 'hash' | 'compare'): Promise<T> {
  tasksRun += 1;
  try {
    return (await passwordPool().run(task, { name })) as T;
  } catch (error) {
    // Piscina's "Task queue is at limit": the server is busy hashing; ask the client to slow down.
    if (error instanceof Error && /queue is at limit/i.test(error.message)) {
      throw errors.overRequestRateLimit();
    }
    throw error;
  }
}

export function hashPassword(password: string): Promise<string> {
  return runTask<string>({ password, cost: BCRYPT_COST }, 'hash');
}

function bcryptCompare(password: string, hash: string): Promise<boolean> {
  return runTask<boolean>({ password, hash }, 'compare');
}

let dummyHash: Promise<string> | undefined;

/**
 * Compares a password with a stored hash (bcrypt, or an imported argon2 hash).
 * Without a hash it still spends the time of a comparison, so a sign-in takes
 * as long whether or not the account exists.
 */
export async function verifyPassword(
  password: string,
  stored: string | null | undefined,
): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
    await bcryptCompare(password, await dummyHash);
    return false;
  }
  if (stored.startsWith('$argon2')) {
    try {
      return await argon2.verify(stored, password);
    } catch {
      return false;
    }
  }
  if (/^\$2[abxy]\$\d{2}\$/.test(stored)) return bcryptCompare(password, stored);
  return false;
}

export function isSupportedPasswordHash(hash: string): boolean {
  return /^\$2[abxy]\$\d{2}\$[./A-Za-z0-9]{53}$/.test(hash) || /^\$argon2(id|i|d)\$/.test(hash);
}

const commonPasswords = new Set(
  (dictionary['passwords-common'] as string[]).map((password) => password.toLowerCase()),
);

/** Rejects passwords over 72 bytes (bcrypt's limit), as GoTrue does. */
export function checkPasswordLength(password: string): void {
  if (Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES) {
    throw errors.validation('Password cannot be longer than 72 characters');
  }
}

/** Throws GoTrue's weak_password error, listing every reason. */
export function checkPasswordStrength(config: AuthConfig['password'], password: string): void {
  checkPasswordLength(password);
  const reasons: string[] = [];
  const sentences: string[] = [];
  if (password.length < config.minLength) {
    reasons.push('length');
    sentences.push(`Password should be at least ${config.minLength} characters.`);
  }
  const missing = config.requiredCharacterSets.filter(
    (set) => ![...password].some((character) => set.includes(character)),
  );
  if (missing.length > 0) {
    reasons.push('characters');
    sentences.push(
      `Password should contain at least one character of each: ${config.requiredCharacterSets.join(', ')}.`,
    );
  }
  if (config.rejectCommon && commonPasswords.has(password.toLowerCase())) {
    reasons.push('pwned');
    sentences.push(
      'Password is known to be weak and easy to guess, please choose a different one.',
    );
  }
  if (reasons.length > 0) throw errors.weakPassword(sentences.join(' '), reasons);
}

/** The weak_password note a valid-but-weak password sign-in carries (GoTrue), or undefined. */
export function weakPasswordNote(
  config: AuthConfig['password'],
  password: string,
): { message: string; reasons: string[] } | undefined {
  try {
    checkPasswordStrength(config, password);
    return undefined;
  } catch (error) {
    const extra = (error as { extra?: { weak_password?: { reasons: string[] } } }).extra;
    if (!extra?.weak_password) return undefined;
    return { message: (error as Error).message, reasons: extra.weak_password.reasons };
  }
}
