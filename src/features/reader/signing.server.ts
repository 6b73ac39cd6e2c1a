/**
 * Signed, expiring URLs for chapter page images (docs/reader.md; why: docs/decisions.md "Media").
 *
 *   /media/p/{e4pid}/{position}.webp?exp={unix}&sig={hex}            (anyone: a chapter free for everyone)
 *   /media/p/{e4pid}/{position}.webp?exp={unix}&u={reader}&sig={hex} (one reader: owned, rented…)
 *   sig = first 32 hex chars of HMAC-SHA256(page-url key, `${e4pid}:${position}:${exp}` + `:u${reader}` when bound)
 *
 * A locked chapter's preview pages (docs/reader.md, "Chapter preview") have their own scope:
 *
 *   /media/p/{e4pid}/{position}.webp?exp={unix}&pv=1&sig={hex}
 *   sig = first 32 hex chars of HMAC-SHA256(page-url key, `preview:${e4pid}:${position}:${exp}`)
 *
 * so a preview signature is never a reading one (nor the other way round), and it names its page:
 * it opens that page only, and only while the page is still among the chapter's preview pages.
 *
 * Only the reader page model and the manifest hand these out, and only for chapters the
 * visitor may read; the media route checks the signature before touching the database, then
 * that the visitor is the reader it names and may still read the chapter.
 */
import crypto from 'node:crypto';
import { keyFor } from '~/server/secrets';
import { chapterPagePath } from '~/lib/paths';

type Secret = string | Buffer;

/** How long a handed-out page URL stays valid. */
export const PAGE_URL_TTL = 2 * 3600;
/** Expiry times are rounded up to this step so the same URL is handed out for 10 minutes (cacheable). */
export const PAGE_URL_STEP = 600;
/** Length of the hex signature in the URL (128 bits). */
export const SIGNATURE_HEX = 32;

export type Verdict = 'ok' | 'invalid' | 'expired';

/** The expiry a URL issued at `now` carries: now + TTL, rounded up to the next 10 minutes. */
export function pageExpiry(now: number): number {
  return Math.ceil((now + PAGE_URL_TTL) / PAGE_URL_STEP) * PAGE_URL_STEP;
}

/** `viewer` 0: a URL for anyone; otherwise for that reader only. */
export function signPage(e4pid: string, position: number, exp: number, secret: Secret = keyFor('page-url'), viewer = 0): string {
  const message = viewer ? `${e4pid}:${position}:${exp}:u${viewer}` : `${e4pid}:${position}:${exp}`;
  return crypto.createHmac('sha256', secret).update(message).digest('hex').slice(0, SIGNATURE_HEX);
}

/** The signature of a preview page URL (its own scope: no reading URL has the same message). */
export function signPreviewPage(e4pid: string, position: number, exp: number, secret: Secret = keyFor('page-url')): string {
  return crypto.createHmac('sha256', secret).update(`preview:${e4pid}:${position}:${exp}`).digest('hex').slice(0, SIGNATURE_HEX);
}

/** A signed preview URL (path and query) for one of a locked chapter's first pages, for anyone, valid for about two hours from `now`. */
export function signedPreviewUrl(e4pid: string, position: number, now: number, secret: Secret = keyFor('page-url')): string {
  const exp = pageExpiry(now);
  return `${chapterPagePath(e4pid, position)}?exp=${exp}&pv=1&sig=${signPreviewPage(e4pid, position, exp, secret)}`;
}

/** A signed URL (path and query) for one page of a chapter, valid for about two hours from `now`, for anyone (`viewer` 0) or one reader. */
export function signedPageUrl(e4pid: string, position: number, now: number, secret: Secret = keyFor('page-url'), viewer = 0): string {
  const exp = pageExpiry(now);
  return `${chapterPagePath(e4pid, position)}?exp=${exp}${viewer ? `&u=${viewer}` : ''}&sig=${signPage(e4pid, position, exp, secret, viewer)}`;
}

/** The reader a page URL is bound to (0: anyone), or null when `u` is malformed. */
export function pageViewer(u: string | null): number | null {
  if (u === null) return 0;
  return /^[1-9]\d{0,9}$/.test(u) && Number(u) <= 2 ** 31 - 1 ? Number(u) : null;
}

/**
 * Checks a page URL's `exp` and `sig` query values. The signature is compared in constant
 * time; malformed input is 'invalid', a correct signature past its expiry is 'expired'.
 */
export function verifyPage(
  e4pid: string,
  position: number,
  exp: string | null,
  sig: string | null,
  now: number,
  secret: Secret = keyFor('page-url'),
  viewer = 0,
): Verdict {
  if (!exp || !sig || !/^\d{1,12}$/.test(exp) || !/^[0-9a-f]+$/i.test(sig) || sig.length !== SIGNATURE_HEX) return 'invalid';
  if (!Number.isInteger(position) || position < 0) return 'invalid';
  return checkSignature(signPage(e4pid, position, Number(exp), secret, viewer), exp, sig, now);
}

/** Checks a preview page URL's `exp` and `sig` in the preview scope; as verifyPage. */
export function verifyPreviewPage(e4pid: string, position: number, exp: string | null, sig: string | null, now: number, secret: Secret = keyFor('page-url')): Verdict {
  if (!exp || !sig || !/^\d{1,12}$/.test(exp) || !/^[0-9a-f]+$/i.test(sig) || sig.length !== SIGNATURE_HEX) return 'invalid';
  if (!Number.isInteger(position) || position < 0) return 'invalid';
  return checkSignature(signPreviewPage(e4pid, position, Number(exp), secret), exp, sig, now);
}

function checkSignature(signature: string, exp: string, sig: string, now: number): Verdict {
  const expected = Buffer.from(signature, 'utf8');
  const given = Buffer.from(sig.toLowerCase(), 'utf8');
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return 'invalid';
  // Checked after the signature so a forged far-future exp is reported as invalid, not expired.
  if (Number(exp) <= now) return 'expired';
  // No URL is ever issued further ahead than this: a longer one comes from a leaked key or a bug.
  if (Number(exp) > pageExpiry(now)) return 'invalid';
  return 'ok';
}
