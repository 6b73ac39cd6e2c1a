/**
 * The browser's bot-check tokens (docs/decisions.md, "App check"): one token kept ready, a fresh
 * one handed to each money call (tokens are single use), and calls that carry it. Islands that
 * make money calls import this (about 1 KB); the solver (altcha-lib and its Web Worker) or
 * Turnstile's script loads only when a token is first needed, so no other page pays for them.
 *
 * With `debug` (APP_CHECK_DEBUG) nothing happens in the background: a token is solved when a call
 * asks for it, and none is kept ready or refreshed, so what a call costs is what one sees.
 */
import { APP_CHECK_HEADER, APP_CHECK_REFUSED_HEADER, type AppCheckChallenge, type AppCheckSettings } from './app-check';

interface Pending {
  token: Promise<string | null>;
  /** When the token stops being accepted (this browser's clock). */
  goodUntil: number;
}

/** A ready token is handed out only while it stays good this long: the call still has to arrive. */
const MARGIN_MS = 30_000;
let ready: Pending | null = null;

/** Solves a token in the background, once the page is idle, so the next money call need not wait. */
export function prepareAppCheck(settings: AppCheckSettings | null): void {
  if (!settings || settings.debug || ready) return;
  const start = () => {
    if (!ready) ready = obtain(settings);
  };
  if ('requestIdleCallback' in window) requestIdleCallback(start, { timeout: 1000 });
  else setTimeout(start, 50);
}

/**
 * A fresh token for one call: the ready one while it is good, else one solved now; the next is
 * then prepared. Null when the check is off, or when no token could be had (offline, the solver
 * failed): the call goes without, and the server says why it refuses it.
 */
export async function appCheckToken(settings: AppCheckSettings | null): Promise<string | null> {
  if (!settings) return null;
  const kept = ready && ready.goodUntil - MARGIN_MS > Date.now() ? ready : null;
  ready = null;
  // A ready token that could not be had (offline a moment ago) gets one fresh attempt.
  const token = (kept && (await kept.token)) ?? (await obtain(settings).token);
  prepareAppCheck(settings);
  return token;
}

/**
 * fetch() with a token in the header. A token refused as expired or used (a laptop that slept,
 * a second tab that took it) gets one more try with a new one: the refused call did nothing.
 */
export async function fetchWithAppCheck(settings: AppCheckSettings | null, url: string, init: RequestInit): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const token = await appCheckToken(settings);
    const headers = new Headers(init.headers);
    if (token) headers.set(APP_CHECK_HEADER, token);
    const res = await fetch(url, { ...init, headers });
    const refused = res.headers.get(APP_CHECK_REFUSED_HEADER);
    if (attempt > 0 || (refused !== 'expired' && refused !== 'used')) return res;
  }
}

function obtain(settings: AppCheckSettings): Pending {
  const pending: Pending = { token: Promise.resolve(null), goodUntil: Date.now() + 60_000 };
  pending.token = (async () => {
    try {
      if (settings.provider === 'turnstile') {
        const { turnstileResponse } = await import('./app-check-turnstile');
        pending.goodUntil = Date.now() + 300_000;
        return await turnstileResponse(settings.siteKey);
      }
      const res = await fetch(settings.challenge, { credentials: 'same-origin', headers: { accept: 'application/json' } });
      if (!res.ok) return null;
      const answer = (await res.json()) as AppCheckChallenge;
      if (answer.provider !== 'altcha') return null;
      // Measured from when the challenge arrived: the two clocks need not agree.
      pending.goodUntil = Date.now() + answer.expires_in * 1000;
      const { solveAltcha } = await import('./app-check-solver');
      return await solveAltcha(answer.challenge);
    } catch {
      return null;
    }
  })();
  if (!settings.debug) void pending.token.then(() => refreshLater(pending, settings));
  return pending;
}

/** A ready token that nobody took is replaced before it expires (while the page is shown). */
function refreshLater(pending: Pending, settings: AppCheckSettings): void {
  setTimeout(() => {
    if (ready !== pending) return;
    ready = null;
    if (document.visibilityState === 'visible') prepareAppCheck(settings);
    else document.addEventListener('visibilitychange', () => prepareAppCheck(settings), { once: true });
  }, Math.max(0, pending.goodUntil - MARGIN_MS - Date.now()));
}
