/**
 * The one way to read a request body. Every endpoint that reads one says how large it may be;
 * the reader answers 413 from the Content-Length before reading anything, stops reading as soon
 * as a body without one grows past the cap, gives up with 408 when the body does not arrive in
 * time (a client can announce bytes it never sends), and refuses text fields that the
 * databases cannot store (NUL and other control characters, broken UTF-8) with 400, so both
 * dialects answer the same. scripts/edge.mjs refuses any body over 64 KB before the app sees it.
 */
import { config } from './config.mjs';

/** Caps per kind of body: a login or favorite form is a few hundred bytes. */
export const BODY_LIMITS = {
  form: 16 * 1024,
  json: 4 * 1024,
} as const;

export type BodyError = {
  ok: false;
  status: 400 | 408 | 413 | 415;
  /** What went wrong, for the message: 'type' (wrong content type), 'malformed', 'tooLarge', 'timeout'. */
  reason: 'type' | 'malformed' | 'tooLarge' | 'timeout';
};
export type BodyResult<T> = { ok: true; value: T } | BodyError;

const fail = (status: BodyError['status'], reason: BodyError['reason']): BodyError => ({ ok: false, status, reason });

/** The raw bytes, at most `max`, within the configured time. */
export async function readBytes(request: Request, max: number, timeoutMs = config.bodyTimeoutMs): Promise<BodyResult<Uint8Array<ArrayBuffer>>> {
  const declared = request.headers.get('content-length');
  if (declared !== null && (!/^\d{1,15}$/.test(declared.trim()) || Number(declared) > max)) {
    return /^\d{1,15}$/.test(declared.trim()) ? fail(413, 'tooLarge') : fail(400, 'malformed');
  }
  if (!request.body) return { ok: true, value: new Uint8Array(new ArrayBuffer(0)) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), timedOut]);
      // Not awaited: cancelling a stream whose client has gone quiet waits for that client.
      if (next === 'timeout') {
        reader.cancel().catch(() => {});
        return fail(408, 'timeout');
      }
      if (next.done) break;
      size += next.value.byteLength;
      if (size > max) {
        reader.cancel().catch(() => {});
        return fail(413, 'tooLarge');
      }
      chunks.push(next.value);
    }
  } catch {
    // The client went away mid-body.
    return fail(400, 'malformed');
  } finally {
    clearTimeout(timer);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return { ok: true, value: out };
}

/**
 * Text a database can store and a person could have typed: well-formed UTF-16 (no lone
 * surrogates) without C0 controls other than tab, line feed and carriage return. PostgreSQL
 * rejects NUL in text outright; SQLite would store it and compare strings wrongly.
 */
export function isCleanText(text: string): boolean {
  return !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text) && text.isWellFormed();
}

const URLENCODED = /^application\/x-www-form-urlencoded\s*(;|$)/i;
const MULTIPART = /^multipart\/form-data\s*;/i;

/**
 * The fields of an HTML form, url-encoded or multipart (text fields only), at most `max`
 * bytes. Every field name and value is clean text (see isCleanText).
 */
export async function readForm(request: Request, max: number = BODY_LIMITS.form): Promise<BodyResult<URLSearchParams>> {
  const type = request.headers.get('content-type') ?? '';
  if (!URLENCODED.test(type) && !MULTIPART.test(type)) return fail(415, 'type');
  const bytes = await readBytes(request, max);
  if (!bytes.ok) return bytes;
  let form: URLSearchParams;
  try {
    if (URLENCODED.test(type)) {
      const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.value);
      form = new URLSearchParams(text);
      // Percent-escapes that do not spell UTF-8 decode to U+FFFD: broken input, not a name.
      if (text.includes('%') && [...form].some(([k, v]) => k.includes('\ufffd') || v.includes('\ufffd'))) return fail(400, 'malformed');
    } else {
      const data = await new Response(bytes.value, { headers: { 'content-type': type } }).formData();
      form = new URLSearchParams();
      for (const [k, v] of data) if (typeof v === 'string') form.append(k, v);
    }
  } catch {
    return fail(400, 'malformed');
  }
  for (const [k, v] of form) if (!isCleanText(k) || !isCleanText(v)) return fail(400, 'malformed');
  return { ok: true, value: form };
}

/** A form with files (multipart), as the studio's uploads send it. */
export interface Upload {
  fields: URLSearchParams;
  files: Map<string, { name: string; bytes: Uint8Array }>;
}

/**
 * A multipart form with its files, at most `max` bytes in all. Text fields are clean text (see
 * isCleanText); a file's bytes are the caller's to judge (by content, never by name or type).
 */
export async function readUpload(request: Request, max: number): Promise<BodyResult<Upload>> {
  const type = request.headers.get('content-type') ?? '';
  if (!MULTIPART.test(type)) return fail(415, 'type');
  const bytes = await readBytes(request, max);
  if (!bytes.ok) return bytes;
  const upload: Upload = { fields: new URLSearchParams(), files: new Map() };
  try {
    const data = await new Response(bytes.value, { headers: { 'content-type': type } }).formData();
    for (const [k, v] of data) {
      if (typeof v === 'string') upload.fields.append(k, v);
      else if (!upload.files.has(k)) upload.files.set(k, { name: v.name, bytes: new Uint8Array(await v.arrayBuffer()) });
    }
  } catch {
    return fail(400, 'malformed');
  }
  for (const [k, v] of upload.fields) if (!isCleanText(k) || !isCleanText(v)) return fail(400, 'malformed');
  return { ok: true, value: upload };
}

const JSON_TYPES = /^(application\/json|text\/plain)\s*(;|$)/i;

/**
 * A JSON body (as application/json, or text/plain from navigator.sendBeacon), at most `max`
 * bytes; strings inside it are not checked here: the endpoint's own parser validates fields.
 */
export async function readJson(request: Request, max: number = BODY_LIMITS.json): Promise<BodyResult<unknown>> {
  if (!JSON_TYPES.test(request.headers.get('content-type') ?? '')) return fail(415, 'type');
  const bytes = await readBytes(request, max);
  if (!bytes.ok) return bytes;
  try {
    return { ok: true, value: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.value)) };
  } catch {
    return fail(400, 'malformed');
  }
}

/** One text field, at most `max` characters; repeated fields take the first. */
export function field(form: URLSearchParams, name: string, max = 1024): string {
  return (form.get(name) ?? '').slice(0, max);
}

/** The message key for a body error, for pages and endpoints that show it. */
export function bodyErrorKey(error: BodyError): 'error.body.type' | 'error.body.malformed' | 'error.body.tooLarge' | 'error.body.timeout' {
  return `error.body.${error.reason}`;
}
