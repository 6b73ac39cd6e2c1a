import { hash, verify } from '@node-rs/argon2';
import crypto from 'node:crypto';

/** OWASP password storage cheat sheet: argon2id, m = 19 MiB, t = 2, p = 1. */
const OPTIONS = { algorithm: 2 /* Argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** False for a wrong password or an unreadable hash (never throws for bad input). */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;

/**
 * Verifies against a fixed hash of a random password, for unknown emails: the answer is the
 * same as for a wrong password and takes about as long (one argon2id verification).
 */
export async function verifyDummy(password: string): Promise<false> {
  dummy ??= hashPassword(crypto.randomBytes(18).toString('base64url'));
  await verifyPassword(await dummy, password);
  return false;
}
