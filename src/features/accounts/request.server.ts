import { retryMinutes } from './rate-limit';
/** Reading and vetting form POSTs to the account pages. */
export const MAX_FORM_BYTES = 16 * 1024;

export type FormResult =
  | { ok: true; form: URLSearchParams }
  | { ok: false; error: 'auth.error.badForm' | 'auth.error.formTooLarge' };

/** A same-site form POST's fields, or the status and message key to answer with (403 cross-site, 400 malformed). */
export async function readSameSiteForm(request: Request, url: URL): Promise<{ ok: true; form: URLSearchParams } | { ok: false; status: 400 | 403; error: 'auth.error.crossSite' | 'auth.error.badForm' | 'auth.error.formTooLarge' }> {
  if (isCrossSite(request, url)) return { ok: false, status: 403, error: 'auth.error.crossSite' };
  const body = await readForm(request);
  return body.ok ? body : { ...body, status: 400 };
}

const URLENCODED = /^application\/x-www-form-urlencoded\s*(;|$)/i;
const MULTIPART = /^multipart\/form-data\s*;/i;

/**
 * The body of an HTML form, at most 16 KB, url-encoded or multipart (text fields only).
 * Anything else is an error the page shows with status 400.
 */
export async function readForm(request: Request): Promise<FormResult> {
  const type = request.headers.get('content-type') ?? '';
  if (!URLENCODED.test(type) && !MULTIPART.test(type)) return { ok: false, error: 'auth.error.badForm' };
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > MAX_FORM_BYTES) return { ok: false, error: 'auth.error.formTooLarge' };
  const bytes = await readCapped(request, MAX_FORM_BYTES);
  if (!bytes) return { ok: false, error: 'auth.error.formTooLarge' };
  try {
    if (URLENCODED.test(type)) {
      const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      return { ok: true, form: new URLSearchParams(text) };
    }
    const data = await new Response(new Uint8Array(bytes), { headers: { 'content-type': type } }).formData();
    const form = new URLSearchParams();
    for (const [k, v] of data) if (typeof v === 'string') form.append(k, v);
    return { ok: true, form };
  } catch {
    return { ok: false, error: 'auth.error.badForm' };
  }
}

async function readCapped(request: Request, max: number): Promise<Buffer | null> {
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** One text field, trimmed to a sane length; repeated fields take the first. */
export function field(form: URLSearchParams, name: string, max = 1024): string {
  return (form.get(name) ?? '').slice(0, max);
}

/**
 * True for a mutation that did not come from our own pages: `Sec-Fetch-Site: cross-site`, or an
 * `Origin` that is not this origin. Astro's checkOrigin covers form content types; this also
 * covers JSON and other bodies.
 */
export function isCrossSite(request: Request, url: URL): boolean {
  if ((request.headers.get('sec-fetch-site') ?? '').toLowerCase() === 'cross-site') return true;
  const origin = request.headers.get('origin');
  return origin !== null && origin !== url.origin;
}

/** Marks an account-page response as rate limited (429 with Retry-After) and returns the message key's minutes. */
export function markRateLimited(response: ResponseInit & { headers: Headers }, retryAfter: number): { minutes: number } {
  response.status = 429;
  response.headers.set('Retry-After', String(retryAfter));
  return { minutes: retryMinutes(retryAfter) };
}
