import type { DB } from '~/server/db';
import { clear, hit, LIMITS } from '~/server/rate-limit';
import { verifyDummy, verifyPassword } from './password.server';
import { createSession, invalidateSession, type NewSession } from './sessions.server';
import { AccountInputError, createUser, findUserByEmail } from './users.server';
import { emailError, nameError, normalizeEmail, passwordError } from './validation';

export type LoginResult =
  | { ok: true; session: NewSession; userId: number }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'rateLimited'; retryAfter: number };

/**
 * Checks the limits (per IP, then per account), then the password. An unknown email and a wrong
 * password give the same answer after the same work (one argon2id verification).
 */
export async function login(db: DB, input: { email: string; password: string; ip: string; userAgent?: string | null; country?: string | null }, now = Math.floor(Date.now() / 1000)): Promise<LoginResult> {
  const email = normalizeEmail(input.email).slice(0, 254);
  const byIp = await hit(db, `login:ip:${input.ip}`, LIMITS.loginPerIp, now);
  if (!byIp.allowed) return { ok: false, reason: 'rateLimited', retryAfter: byIp.retryAfter };
  const accountBucket = `login:email:${email}`;
  const byEmail = await hit(db, accountBucket, LIMITS.loginPerEmail, now);
  if (!byEmail.allowed) return { ok: false, reason: 'rateLimited', retryAfter: byEmail.retryAfter };
  const user = email ? await findUserByEmail(db, email) : undefined;
  const password = input.password.slice(0, 1024);
  const good = user ? await verifyPassword(user.password_hash, password) : await verifyDummy(password);
  if (!user || !good) return { ok: false, reason: 'invalid' };
  await clear(db, accountBucket);
  return { ok: true, session: await createSession(db, Number(user.id), now, input.userAgent ?? null, input.country ?? null), userId: Number(user.id) };
}

/**
 * Asks a signed-in account for its password again (staff's money and admin actions want a
 * recent sign-in): the login's limits and work, for this account's email only. On success a new
 * session replaces the old one, so its creation time is the moment the password was typed.
 */
export async function confirmPassword(db: DB, input: { email: string; password: string; ip: string; sessionId: string | null; userAgent?: string | null; country?: string | null }, now = Math.floor(Date.now() / 1000)): Promise<LoginResult> {
  const result = await login(db, { email: input.email, password: input.password, ip: input.ip, userAgent: input.userAgent, country: input.country }, now);
  if (result.ok && input.sessionId) await invalidateSession(db, input.sessionId);
  return result;
}

export interface SignupInput {
  email: string;
  displayName: string;
  password: string;
  terms: boolean;
  ip: string;
  /** The browser's User-Agent, kept with the new session. */
  userAgent?: string | null;
  /** The visitor's country from COUNTRY_HEADER, kept with the new session. */
  country?: string | null;
}

export type SignupResult =
  | { ok: true; session: NewSession; userId: number }
  | { ok: false; reason: 'invalid'; errors: Partial<Record<'email' | 'displayName' | 'password' | 'terms', string>> }
  | { ok: false; reason: 'taken' }
  | { ok: false; reason: 'rateLimited'; retryAfter: number };

/** Validates, rate-limits (per IP and per email), creates the account and signs it in. */
export async function signup(db: DB, input: SignupInput, now = Math.floor(Date.now() / 1000)): Promise<SignupResult> {
  const errors: Partial<Record<'email' | 'displayName' | 'password' | 'terms', string>> = {};
  const e = emailError(input.email);
  const n = nameError(input.displayName);
  const p = passwordError(input.password);
  if (e) errors.email = e;
  if (n) errors.displayName = n;
  if (p) errors.password = p;
  if (!input.terms) errors.terms = 'auth.signup.termsRequired';
  if (Object.keys(errors).length) return { ok: false, reason: 'invalid', errors };
  const byIp = await hit(db, `signup:ip:${input.ip}`, LIMITS.signupPerIp, now);
  if (!byIp.allowed) return { ok: false, reason: 'rateLimited', retryAfter: byIp.retryAfter };
  const byEmail = await hit(db, `signup:email:${normalizeEmail(input.email)}`, LIMITS.signupPerEmail, now);
  if (!byEmail.allowed) return { ok: false, reason: 'rateLimited', retryAfter: byEmail.retryAfter };
  try {
    const user = await createUser(db, { email: input.email, displayName: input.displayName, password: input.password }, now);
    if (!user) return { ok: false, reason: 'taken' };
    return { ok: true, session: await createSession(db, user.id, now, input.userAgent ?? null, input.country ?? null), userId: user.id };
  } catch (err) {
    if (err instanceof AccountInputError) return { ok: false, reason: 'invalid', errors: { email: err.key } };
    throw err;
  }
}
