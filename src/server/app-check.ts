/**
 * The bot check before money calls (docs/decisions.md, "App check"), behind one interface with
 * two providers:
 *
 * - `altcha` (the default): a self-hosted proof of work in ALTCHA's open protocol (altcha-lib).
 *   The server signs a challenge that hides a random counter; the browser finds the counter by
 *   deriving PBKDF2 keys until one matches; the solved challenge is the token. Checking it costs
 *   two HMACs (the challenge's signature and the derived key's), no key derivation. No third
 *   party, no cookie.
 * - `turnstile`: Cloudflare Turnstile, when both of its keys are configured; each token is
 *   checked with Cloudflare's siteverify call.
 *
 * Either way a token is single use across every process on one database: its id is claimed in
 * `app_check_uses` by an insert that only one caller can win, and kept until the token expires.
 * A check is bounded: a token longer than APP_CHECK_TOKEN_MAX, or one that does not parse, is
 * refused before any work; a Turnstile token is claimed before Cloudflare is asked, so it costs
 * at most one provider call, which gives up after VERIFY_TIMEOUT_MS.
 */
import crypto from 'node:crypto';
import { createChallenge, randomInt, verifySolution, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { APP_CHECK_CHALLENGE_ENDPOINT } from '~/lib/paths';
import { APP_CHECK_TOKEN_MAX, fromBase64Url, splitToken, type AppCheckChallenge, type AppCheckProviderName, type AppCheckSettings } from '~/lib/app-check';
import { config } from './config.mjs';
import type { DB } from './db';
import { keyFor } from './secrets';

/** Why a token was refused: `unavailable` is the provider not answering (503), the others are 403. */
export type AppCheckFailure = 'missing' | 'malformed' | 'forged' | 'expired' | 'used' | 'wrong-provider' | 'unavailable';
export type AppCheckVerdict = { ok: true } | { ok: false; reason: AppCheckFailure };

export interface AppCheckProvider {
  readonly name: AppCheckProviderName;
  /** What the browser needs to obtain a token (`now` in unix seconds). */
  challenge(now: number): Promise<AppCheckChallenge>;
  /** Whether the token is genuine, unexpired and unused; a token that passes is used up. */
  verify(db: DB, token: string, context: { now: number; ip: string }): Promise<AppCheckVerdict>;
}

const refused = (reason: AppCheckFailure): AppCheckVerdict => ({ ok: false, reason });

// ---------------------------------------------------------------------------------------------
// The proof of work

/** PBKDF2 over SHA-256 runs natively in every browser's Web Crypto (no WebAssembly to download). */
const ALGORITHM = 'PBKDF2/SHA-256';
/** PBKDF2 iterations per try: ALTCHA's suggested cost; the difficulty sets the number of tries. */
export const ALTCHA_COST = 5_000;
/** How long a challenge may be solved and its token used. The browser refreshes a ready token before this. */
export const ALTCHA_TTL_SECONDS = 600;

export interface AltchaOptions {
  /** The highest counter a challenge hides; the counter is drawn from its upper half. */
  difficulty: number;
  /** Signs the challenge (so a solver cannot change its parameters). */
  signatureSecret: string;
  /** Signs the key the hidden counter derives (so a solution is checked without deriving it again). */
  keySecret: string;
}

export function altchaProvider(options: AltchaOptions): AppCheckProvider {
  return {
    name: 'altcha',
    async challenge(now) {
      const challenge = await createChallenge({
        algorithm: ALGORITHM,
        cost: ALTCHA_COST,
        // Deterministic mode: the work is the counter, so it is the same for every browser.
        counter: randomInt(options.difficulty, Math.ceil(options.difficulty / 2)),
        deriveKey,
        expiresAt: now + ALTCHA_TTL_SECONDS,
        hmacSignatureSecret: options.signatureSecret,
        hmacKeySignatureSecret: options.keySecret,
      });
      return { provider: 'altcha', challenge, expires_in: ALTCHA_TTL_SECONDS };
    },
    async verify(db, token, { now }) {
      const shape = checkShape(token, 'altcha');
      if (!shape.ok) return shape;
      const payload = parseAltcha(shape.body);
      if (!payload) return refused('malformed');
      const { parameters } = payload.challenge;
      // Our clock, not the library's, decides expiry (the library checks Date.now() as well).
      if (parameters.expiresAt! <= now) return refused('expired');
      let result;
      try {
        result = await verifySolution({ challenge: payload.challenge, solution: payload.solution, deriveKey, hmacSignatureSecret: options.signatureSecret, hmacKeySignatureSecret: options.keySecret });
      } catch {
        return refused('malformed');
      }
      if (result.expired) return refused('expired');
      // Without the key signature the library would derive the key itself: that is work we never
      // do for a caller, and every challenge we sign carries one, so its absence is a forgery.
      if (result.invalidSignature || !parameters.keySignature) return refused('forged');
      if (!result.verified) return refused('forged');
      return (await claim(db, `altcha:${parameters.nonce}`, parameters.expiresAt!, now)) ? { ok: true } : refused('used');
    },
  };
}

const HEX = (bytes: number) => new RegExp(`^[0-9a-f]{${bytes * 2}}$`);
const HEX16 = HEX(16);
const HEX32 = HEX(32);

/** The token's challenge and solution, when they have the shapes this server signs; null otherwise. */
function parseAltcha(body: string): { challenge: Challenge; solution: { counter: number; derivedKey: string } } | null {
  const text = fromBase64Url(body);
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(value) || !isObject(value.challenge) || !isObject(value.solution)) return null;
  const { parameters, signature } = value.challenge;
  const { counter, derivedKey } = value.solution;
  if (!isObject(parameters) || typeof signature !== 'string' || !HEX32.test(signature)) return null;
  if (parameters.algorithm !== ALGORITHM || typeof parameters.nonce !== 'string' || !HEX16.test(parameters.nonce) || !Number.isSafeInteger(parameters.expiresAt)) return null;
  if (!Number.isSafeInteger(counter) || typeof derivedKey !== 'string' || !HEX32.test(derivedKey)) return null;
  return { challenge: { parameters: parameters as unknown as Challenge['parameters'], signature }, solution: { counter: counter as number, derivedKey } };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// ---------------------------------------------------------------------------------------------
// Cloudflare Turnstile

/** How long a Turnstile token lives (Cloudflare's rule) and so how long its use is remembered. */
export const TURNSTILE_TTL_SECONDS = 300;
/** The siteverify call gives up after this long: the reader waits for it. */
export const VERIFY_TIMEOUT_MS = 5_000;
/** A siteverify answer is a few hundred bytes; anything far larger is not one. */
const VERIFY_ANSWER_MAX = 16 * 1024;
/** Cloudflare's tokens are at most 2048 characters of base64url and dots. */
const TURNSTILE_TOKEN = /^[A-Za-z0-9._-]{1,2048}$/;

export interface TurnstileOptions {
  siteKey: string;
  secretKey: string;
  verifyUrl: string;
  timeoutMs?: number;
}

export function turnstileProvider(options: TurnstileOptions): AppCheckProvider {
  return {
    name: 'turnstile',
    async challenge() {
      return { provider: 'turnstile', site_key: options.siteKey, expires_in: TURNSTILE_TTL_SECONDS };
    },
    async verify(db, token, { now, ip }) {
      const shape = checkShape(token, 'turnstile');
      if (!shape.ok) return shape;
      if (!TURNSTILE_TOKEN.test(shape.body)) return refused('malformed');
      // Claimed first: a token sent twice, or twenty times at once, reaches Cloudflare once.
      const id = `turnstile:${crypto.createHash('sha256').update(shape.body).digest('hex')}`;
      if (!(await claim(db, id, now + TURNSTILE_TTL_SECONDS, now))) return refused('used');
      let answer: unknown;
      try {
        const res = await fetch(options.verifyUrl, {
          method: 'POST',
          body: new URLSearchParams({ secret: options.secretKey, response: shape.body, remoteip: ip }),
          signal: AbortSignal.timeout(options.timeoutMs ?? VERIFY_TIMEOUT_MS),
        });
        const text = await res.text();
        if (!res.ok || text.length > VERIFY_ANSWER_MAX) return refused('unavailable');
        answer = JSON.parse(text);
      } catch {
        return refused('unavailable');
      }
      if (!isObject(answer)) return refused('unavailable');
      if (answer.success === true) return { ok: true };
      const codes = Array.isArray(answer['error-codes']) ? answer['error-codes'] : [];
      // Cloudflare says `timeout-or-duplicate` for a token past its 300 s or already checked.
      return refused(codes.includes('timeout-or-duplicate') ? 'expired' : 'forged');
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Shared

/** Length and provider prefix: the checks that come before any work. */
function checkShape(token: string, provider: AppCheckProviderName): { ok: true; body: string } | { ok: false; reason: AppCheckFailure } {
  if (!token) return { ok: false, reason: 'missing' };
  if (token.length > APP_CHECK_TOKEN_MAX) return { ok: false, reason: 'malformed' };
  const split = splitToken(token);
  if (!split) return { ok: false, reason: 'malformed' };
  if (split.provider !== provider) return { ok: false, reason: 'wrong-provider' };
  return { ok: true, body: split.body };
}

/** Claims between prunes in one process. */
const PRUNE_EVERY = 50;
/** Rows removed per prune: more than fifty claims can add, so the table stays bounded. */
const PRUNE_BATCH = 200;
let sincePrune = 0;

/**
 * Marks a token used; true for its first use only, whatever the number of processes or
 * concurrent requests (the primary key decides). Expired marks are pruned now and then: their
 * tokens are refused as expired before they get here.
 */
async function claim(db: DB, id: string, expiresAt: number, now: number): Promise<boolean> {
  const row = await db.insertInto('app_check_uses').values({ id, expires_at: expiresAt }).onConflict((oc) => oc.column('id').doNothing()).returning('id').executeTakeFirst();
  if (++sincePrune >= PRUNE_EVERY) {
    sincePrune = 0;
    await db
      .deleteFrom('app_check_uses')
      .where('id', 'in', (qb) => qb.selectFrom('app_check_uses').select('id').where('expires_at', '<', now).limit(PRUNE_BATCH))
      .execute();
  }
  return row !== undefined;
}

// ---------------------------------------------------------------------------------------------
// The configured provider

let configured: AppCheckProvider | undefined;

/** The provider the configuration names (src/server/config.mjs, `appCheck`). */
export function appCheckProvider(): AppCheckProvider {
  const c = config.appCheck;
  configured ??= c.turnstile
    ? turnstileProvider(c.turnstile)
    : altchaProvider({ difficulty: c.difficulty, signatureSecret: keyFor('app-check').toString('base64url'), keySecret: keyFor('app-check-key').toString('base64url') });
  return configured;
}

/** What a page gives the islands that make money calls; null when the check is not enforced. */
export function appCheckSettings(): AppCheckSettings | null {
  const c = config.appCheck;
  if (!c.enforced) return null;
  return c.turnstile ? { provider: 'turnstile', siteKey: c.turnstile.siteKey, debug: c.debug } : { provider: 'altcha', challenge: APP_CHECK_CHALLENGE_ENDPOINT, debug: c.debug };
}
