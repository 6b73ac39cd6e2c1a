/**
 * The bot check's shared vocabulary (docs/decisions.md, "App check"): where a token travels, how
 * it is spelled, and what a page tells its islands. Browser-safe and tiny: the server
 * (src/server/app-check.ts, src/middleware/app-check.ts), the browser's token keeper
 * (app-check-client.ts) and the tests all read these names from here.
 *
 * A token is `{provider}.{body}`: `altcha.` and the base64url JSON of the solved challenge, or
 * `turnstile.` and Cloudflare's token. The prefix lets the server tell a token of another
 * provider from a forged one.
 */
import type { Challenge, Solution } from 'altcha-lib/types';

/** The header a fetch call carries its token in. */
export const APP_CHECK_HEADER = 'X-App-Check';
/** The form field a native form submission carries it in (the checkout's final submit). */
export const APP_CHECK_FIELD = 'app_check';
/** Set on every bot-check refusal, with the reason: the browser asks for a new token and tries once more. */
export const APP_CHECK_REFUSED_HEADER = 'X-App-Check-Refused';
/** The longest token accepted; a Turnstile token is at most 2048 characters, a solved challenge about 700. */
export const APP_CHECK_TOKEN_MAX = 4096;

export type AppCheckProviderName = 'altcha' | 'turnstile';

/**
 * What a page that makes money calls gives its island (null: the check is not enforced, so the
 * island sends no token). `debug` (APP_CHECK_DEBUG) turns the ready token and its refresh off.
 */
export type AppCheckSettings =
  | { provider: 'altcha'; challenge: string; debug: boolean }
  | { provider: 'turnstile'; siteKey: string; debug: boolean };

/** GET /api/app-check/challenge/'s answer: what the browser solves, and for how long a solution is good. */
export type AppCheckChallenge =
  | { provider: 'altcha'; challenge: Challenge; expires_in: number }
  | { provider: 'turnstile'; site_key: string; expires_in: number };

/** A solved ALTCHA challenge: the challenge exactly as signed, and the counter that solves it. */
export interface AltchaPayload {
  challenge: Challenge;
  solution: Solution;
}

export function altchaToken(payload: AltchaPayload): string {
  return `altcha.${toBase64Url(JSON.stringify({ challenge: payload.challenge, solution: payload.solution }))}`;
}

export function turnstileToken(response: string): string {
  return `turnstile.${response}`;
}

/** The provider and body of a token, or null when it has no known provider prefix. */
export function splitToken(token: string): { provider: AppCheckProviderName; body: string } | null {
  const dot = token.indexOf('.');
  const provider = token.slice(0, dot);
  if (dot < 1 || (provider !== 'altcha' && provider !== 'turnstile')) return null;
  return { provider, body: token.slice(dot + 1) };
}

function toBase64Url(text: string): string {
  let binary = '';
  for (const b of new TextEncoder().encode(text)) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The text a base64url body spells, or null when it is not base64url or not UTF-8. */
export function fromBase64Url(body: string): string | null {
  if (!/^[A-Za-z0-9_-]*$/.test(body)) return null;
  try {
    const binary = atob(body.replace(/-/g, '+').replace(/_/g, '/'));
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
}
