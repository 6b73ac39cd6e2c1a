import crypto from 'node:crypto';

/** 15 random bytes (120 bits) name a session; it is public (stored as is). */
const ID_BYTES = 15;
/** 24 random bytes (192 bits) prove it; only their SHA-256 is stored. */
const SECRET_BYTES = 24;
const PART = /^[A-Za-z0-9_-]+$/;

export interface SessionToken {
  /** The cookie value: `${id}.${secret}`. */
  token: string;
  id: string;
  secret: string;
  /** SHA-256 hex of the secret, the only form of it the database holds. */
  secretHash: string;
}

/** A new session token (Lucia guide pattern: `id.secret`, base64url, only the secret's hash stored). */
export function generateSessionToken(): SessionToken {
  const id = crypto.randomBytes(ID_BYTES).toString('base64url');
  const secret = crypto.randomBytes(SECRET_BYTES).toString('base64url');
  return { token: `${id}.${secret}`, id, secret, secretHash: hashSecret(secret) };
}

export function hashSecret(secret: string): string {
  return crypto.hash('sha256', secret, 'hex');
}

/** Splits a cookie value into id and secret; null for anything not shaped like our tokens. */
export function parseSessionToken(value: string | undefined | null): { id: string; secret: string } | null {
  if (!value || value.length > 200) return null;
  const dot = value.indexOf('.');
  if (dot <= 0 || dot !== value.lastIndexOf('.')) return null;
  const id = value.slice(0, dot);
  const secret = value.slice(dot + 1);
  if (id.length !== 20 || secret.length !== 32 || !PART.test(id) || !PART.test(secret)) return null;
  return { id, secret };
}

/** Constant-time comparison of a presented secret with a stored hash. */
export function secretMatches(secret: string, storedHash: string): boolean {
  // One-shot hash straight to bytes: every signed-in request checks its session this way.
  const a = crypto.hash('sha256', secret, 'buffer');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && a.length === 32 && crypto.timingSafeEqual(a, b);
}
