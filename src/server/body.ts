/**
 * The one way to read a request body. Every endpoint that reads one says how large it may be;
 * the reader answers 413 from the Content-Length before reading anything, stops reading as soon
 * as a body without one grows past the cap, gives up with 408 when the body does not arrive in
 * time (a client can announce bytes it never sends), and refuses text fields that the
 * databases cannot store (NUL and other control characters, broken UTF-8) with 400, so both
 * dialects answer the same. scripts/edge.mjs refuses any body over 64 KB before the app sees it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import busboy from 'busboy';
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

/** A file of a multipart upload, written to disk as it arrived. */
export interface UploadedFile {
  field: string;
  /** The browser's file name (its last path part), for ordering and messages only. */
  name: string;
  path: string;
  size: number;
}

export interface FileUploadOptions {
  /** Where the files go (created if missing; the caller removes it). */
  dir: string;
  /** Bytes the whole body may hold (announced or actual). */
  maxBytes: number;
  /** Bytes one file may hold, given its first bytes (at most 32), so an archive can be allowed more than an image. */
  maxFileBytes: (head: Uint8Array) => number;
  maxFiles: number;
  /** Time the body may stay silent before the answer is 408 (an upload of 300 MB takes longer than a form). */
  idleMs?: number;
}

export type FileUploadError = BodyError & { file?: string; limit?: 'file' | 'files' };
export type FileUploadResult = { ok: true; fields: URLSearchParams; files: UploadedFile[] } | FileUploadError;

/**
 * A multipart form with files, streamed to files in `options.dir` with busboy
 * (docs/decisions.md, "Chapter uploads"): nothing is held in memory but the text fields, and a
 * file or body over its limit stops the reading at that byte (413, with the file's name). Text
 * fields are clean text, as readForm's. On a refusal the files written so far are left for the
 * caller to remove with the folder.
 */
export async function readFileUpload(request: Request, options: FileUploadOptions): Promise<FileUploadResult> {
  const type = request.headers.get('content-type') ?? '';
  if (!MULTIPART.test(type)) return fail(415, 'type');
  const declared = request.headers.get('content-length');
  if (declared !== null && (!/^\d{1,15}$/.test(declared.trim()) || Number(declared) > options.maxBytes)) {
    return /^\d{1,15}$/.test(declared.trim()) ? fail(413, 'tooLarge') : fail(400, 'malformed');
  }
  if (!request.body) return fail(400, 'malformed');
  await fs.promises.mkdir(options.dir, { recursive: true });

  let parser: ReturnType<typeof busboy>;
  try {
    parser = busboy({
      headers: { 'content-type': type },
      limits: { files: options.maxFiles, fields: 50, fieldSize: BODY_LIMITS.form, parts: options.maxFiles + 50, headerPairs: 20 },
    });
  } catch {
    return fail(400, 'malformed');
  }
  const fields = new URLSearchParams();
  const files: UploadedFile[] = [];
  const writes: Promise<void>[] = [];
  let total = 0;
  let refusal: FileUploadError | null = null;
  const input = Readable.fromWeb(request.body as WebReadableStream<Uint8Array>);

  return new Promise<FileUploadResult>((resolve) => {
    let idle: ReturnType<typeof setTimeout> | undefined;
    let settled = false;
    const finish = (result: FileUploadResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(idle);
      // Whatever was still writing is done (or destroyed) before the caller removes the folder.
      void Promise.allSettled(writes).then(() => resolve(result));
    };
    const refuse = (error: FileUploadError) => {
      if (refusal) return;
      refusal = error;
      input.unpipe(parser);
      // The rest of the body is read and dropped, so the client (still sending) gets the answer
      // instead of a reset; past the body cap, or when it went quiet, the connection goes.
      let dropped = total;
      if (error.status === 408) input.destroy();
      else {
        input.on('data', (chunk: Buffer) => {
          dropped += chunk.length;
          if (dropped > options.maxBytes) input.destroy();
        });
        input.resume();
      }
      finish(refusal);
    };
    const wake = () => {
      clearTimeout(idle);
      idle = setTimeout(() => refuse(fail(408, 'timeout')), options.idleMs ?? 60_000);
    };
    wake();

    parser.on('field', (name, value, info) => {
      if (info.nameTruncated || info.valueTruncated) return refuse(fail(413, 'tooLarge'));
      if (!isCleanText(name) || !isCleanText(value)) return refuse(fail(400, 'malformed'));
      fields.append(name, value);
    });
    parser.on('file', (field, stream, info) => {
      const name = path.basename(String(info.filename ?? '').replaceAll('\\', '/')).slice(0, 255);
      if (!isCleanText(name) || !isCleanText(field)) {
        stream.resume();
        return refuse(fail(400, 'malformed'));
      }
      const file = path.join(options.dir, `upload-${files.length}`);
      const entry: UploadedFile = { field, name, path: file, size: 0 };
      files.push(entry);
      const out = fs.createWriteStream(file, { flags: 'wx' });
      let head = new Uint8Array(0);
      let max = Infinity;
      writes.push(new Promise<void>((done) => {
        out.on('close', () => done());
        out.on('error', () => {
          done();
          refuse(fail(400, 'malformed'));
        });
      }));
      stream.on('data', (chunk: Buffer) => {
        wake();
        entry.size += chunk.length;
        total += chunk.length;
        if (head.length < 32) {
          head = Uint8Array.from([...head, ...chunk.subarray(0, 32 - head.length)]);
          if (head.length >= 32) max = options.maxFileBytes(head);
        }
        if (entry.size > max || (head.length < 32 && entry.size > options.maxFileBytes(head))) {
          stream.destroy();
          out.destroy();
          return refuse({ ...fail(413, 'tooLarge'), file: name, limit: 'file' });
        }
        if (total > options.maxBytes) {
          stream.destroy();
          out.destroy();
          return refuse(fail(413, 'tooLarge'));
        }
        if (!out.write(chunk)) {
          stream.pause();
          out.once('drain', () => stream.resume());
        }
      });
      stream.on('end', () => out.end());
      stream.on('error', () => out.destroy());
    });
    parser.on('filesLimit', () => refuse({ ...fail(413, 'tooLarge'), limit: 'files' }));
    parser.on('partsLimit', () => refuse({ ...fail(413, 'tooLarge'), limit: 'files' }));
    parser.on('fieldsLimit', () => refuse(fail(413, 'tooLarge')));
    parser.on('error', () => refuse(fail(400, 'malformed')));
    parser.on('close', () => {
      if (refusal) return;
      // A file input left empty sends a part with no name and no bytes: not a file.
      const sent = files.filter((f) => f.name !== '' || f.size > 0);
      finish({ ok: true, fields, files: sent });
    });
    input.on('error', () => refuse(fail(400, 'malformed')));
    input.pipe(parser);
  });
}
