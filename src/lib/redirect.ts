/**
 * Every redirect the app answers goes through `redirectTo` (and the middleware refuses any
 * other Location), so a target is checked in one place, after every transformation that
 * produces it: normalising `/%2e%2e//evil.example` yields `//evil.example`, which a browser
 * follows off-site, so the check must look at what is sent, not at what was asked for.
 */

const BASE = 'http://inkpass.invalid';

/**
 * True for a path on this site as it will be sent in a Location header: one leading slash, no
 * second slash or backslash after it (`//host`, `/\host` are off-site for browsers), no
 * control characters, no backslashes anywhere (browsers read them as slashes).
 */
export function isLocalPath(path: string): boolean {
  return path.length <= 2048 && path.startsWith('/') && !/^\/[/\\]/.test(path) && !/[\u0000-\u001f\u007f\\]/.test(path);
}

/**
 * A `next` target is followed only when it is a path on this site, both as given and after
 * URL normalisation (dot segments resolved, percent-encoding canonicalised); anything else
 * gives `fallback`.
 */
export function safeNext(next: string | null | undefined, fallback = '/'): string {
  if (!next || !isLocalPath(next)) return fallback;
  try {
    const url = new URL(next, BASE);
    if (url.origin !== BASE) return fallback;
    const normalised = url.pathname + url.search + url.hash;
    // The normalised form is what a browser will request: check it again.
    return isLocalPath(normalised) && new URL(normalised, BASE).origin === BASE ? normalised : fallback;
  } catch {
    return fallback;
  }
}

export type RedirectStatus = 301 | 302 | 303 | 307 | 308;

/**
 * The one way to redirect: a response to `target` if it is a safe local path, otherwise to
 * `fallback`. Cookies set through Astro's `cookies` are still attached to it.
 */
export function redirectTo(target: string, status: RedirectStatus = 303, fallback = '/'): Response {
  return new Response(null, { status, headers: { Location: safeNext(target, fallback) } });
}

/**
 * The Location a response may carry on the site at `origin`: a safe local path, or an absolute
 * URL on this same origin (Astro's own trailing-slash redirects). Anything else is null, and
 * the middleware sends the reader home instead.
 */
export function checkedLocation(location: string, origin: string): string | null {
  if (isLocalPath(location)) return safeNext(location, '/') === location ? location : null;
  try {
    const url = new URL(location);
    return url.origin === origin && isLocalPath(url.pathname) ? location : null;
  } catch {
    return null;
  }
}
