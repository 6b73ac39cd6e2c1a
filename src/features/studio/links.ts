/**
 * Share links (spec sections 6-8, issue 27): staff with `content` turn a chapter's reader path
 * into a short link, /l/{code}, on the same site. Pure rules: which paths may be shared and what
 * a code looks like. Unit-tested in links.test.ts.
 */

/** Longer than any reader path the site makes (slug ≤ 200, id ≤ 40, number segment). */
export const SHARE_PATH_MAX = 400;

/** A reader path as src/lib/paths.ts readerPath() builds it: slug, id without EPI-, prefix-number. */
const READER_PATH = /^\/read\/[a-z0-9-]{1,200}\/[A-Za-z0-9_-]{1,40}\/[a-z-]{1,40}-\d{1,6}(?:-\d{1,2})?\/$/;

export type SharePathError = 'empty' | 'tooLong' | 'invalid' | 'offSite' | 'notChapter';

/**
 * The path a share link may lead to, from what staff sent: a chapter's reader path on this site,
 * given as a path or as an absolute URL on `origin` (the request's own). Anything that could
 * lead elsewhere (another host, `//host`, `/\host`, a scheme, control characters) or is not a
 * chapter's reader path (a query, a fragment, dot segments) is refused with the reason.
 */
export function checkSharePath(input: string, origin: string): { ok: true; path: string } | { ok: false; error: SharePathError } {
  const text = input.trim();
  if (!text) return { ok: false, error: 'empty' };
  if (text.length > SHARE_PATH_MAX) return { ok: false, error: 'tooLong' };
  if (/[\u0000-\u001f\u007f\\]/.test(text)) return { ok: false, error: 'invalid' };
  let path: string;
  if (text.startsWith('/')) {
    if (text.startsWith('//')) return { ok: false, error: 'offSite' };
    path = text;
  } else {
    if (!URL.canParse(text)) return { ok: false, error: 'offSite' };
    const url = new URL(text);
    if (url.origin !== origin || url.username || url.password) return { ok: false, error: 'offSite' };
    path = url.pathname + url.search + url.hash;
  }
  return READER_PATH.test(path) ? { ok: true, path } : { ok: false, error: 'notChapter' };
}

/** 96 random bits in URL-safe base64: 16 characters. */
export const SHORT_CODE_BYTES = 12;
const SHORT_CODE = /^[A-Za-z0-9_-]{16}$/;

export function isShortCode(code: string): boolean {
  return SHORT_CODE.test(code);
}

/** The code for `bytes` (SHORT_CODE_BYTES random bytes). */
export function shortCodeFrom(bytes: Uint8Array): string {
  if (bytes.length !== SHORT_CODE_BYTES) throw new Error(`a short code takes ${SHORT_CODE_BYTES} bytes`);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_');
}
