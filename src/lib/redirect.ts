/**
 * A `next` target is followed only when it is a path on this site: one leading slash,
 * not `//host`, not `/\host`, no scheme, no control characters. Anything else goes home.
 */
export function safeNext(next: string | null | undefined, fallback = '/'): string {
  if (!next || next.length > 2048) return fallback;
  if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return fallback;
  if (/[\u0000-\u001f\u007f\\]/.test(next)) return fallback;
  try {
    const url = new URL(next, 'http://inkpass.invalid');
    if (url.origin !== 'http://inkpass.invalid') return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}
