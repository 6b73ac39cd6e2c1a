/**
 * Chapter drafts (issue 27, docs/staff.md "Chapter uploads"): upload sessions that staff with
 * `content` fill with pages, reorder, correct and then publish. A draft is rows in
 * `chapter_drafts`/`chapter_draft_pages` and objects under `.staging/{draft id}/` in the media
 * store (MEDIA_DIR or the bucket), a folder no media route serves; readers cannot reach either.
 * Uploads arrive in work folders on this machine's disk (MEDIA_DIR/.staging/work-…) and are
 * then put into the store. Every change writes its audit record in its own transaction; files
 * are put in before the commit and removed again if it fails, and removed from the store only
 * after the rows that named them are gone.
 */
import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { writeTransaction, type DB } from '~/server/db';
import { writeAudit, commandLineActor, type AuditActor } from '~/server/audit';
import { config } from '~/server/config.mjs';
import type { StoredMedia } from '~/server/media';
import { mediaStore, type MediaStore } from '~/server/media-store';
import { bodyErrorKey, readFileUpload, type UploadedFile } from '~/server/body';
import type { MessageKey, Values } from '~/lib/i18n';
import { stageUpload, type StagedPage } from './uploads.server';
import { UploadError, UPLOAD_LIMITS, isZip, uploadErrorArgs, uploadErrorKey } from './uploads';
import { parseDraftFields, parseSeriesId, type DraftFields, type DraftFieldError, type PublishFields } from './drafts';
import { catalogChanged } from '~/server/cache';
import { refreshReleasedSeries } from '~/features/catalog/index.server';
import { siteIdForLanguage } from '~/lib/site';
import sharp from 'sharp';
import * as repo from './repository.server';

/** The staging folder's name inside MEDIA_DIR. */
export const STAGING_DIR = '.staging';
/** A draft nobody touched for this long is removed by the clean-up. */
export const DRAFT_TTL_SECONDS = 7 * 24 * 60 * 60;
/** A work folder (an upload in progress) older than this was abandoned by a crash. */
const WORK_TTL_SECONDS = 24 * 60 * 60;

export function stagingRoot(mediaDir: string = config.mediaDir): string {
  return path.join(mediaDir, STAGING_DIR);
}

/** A fresh folder for one upload's incoming files (removed by whoever takes it, whatever happens). */
export function uploadWorkDir(mediaDir: string = config.mediaDir): string {
  return path.join(stagingRoot(mediaDir), `work-${crypto.randomBytes(8).toString('hex')}`);
}

/** What the multipart reader needs: an archive may be as large as a chapter, an image as a page. */
export const UPLOAD_BODY = {
  maxBytes: UPLOAD_LIMITS.chapterBytes + 1024 * 1024,
  maxFileBytes: (head: Uint8Array) => (isZip(head) ? UPLOAD_LIMITS.chapterBytes : UPLOAD_LIMITS.fileBytes),
  maxFiles: UPLOAD_LIMITS.pages,
};

export type DraftUploadResult =
  | { ok: true; id: number; pages: number }
  | { ok: false; kind: 'field'; error: DraftFieldError }
  | { ok: false; kind: 'upload'; error: UploadError }
  | { ok: false; kind: 'missing' };

type Actor = AuditActor & { userId: number };

/** A draft's folder in the store. */
const draftFolder = (draftId: number) => `${STAGING_DIR}/${draftId}/`;

async function moveIn(pages: readonly StagedPage[], draftId: number, store: MediaStore, moved: string[]): Promise<string[]> {
  const keys: string[] = [];
  for (const page of pages) {
    const key = `${draftFolder(draftId)}${crypto.randomBytes(8).toString('hex')}.${page.ext}`;
    await store.putFile(key, page.file);
    moved.push(key);
    keys.push(key);
  }
  return keys;
}

async function removeFiles(store: MediaStore, keys: readonly string[]): Promise<void> {
  await Promise.all(keys.map((k) => store.remove(k)));
}

/**
 * A new draft of a chapter of `seriesId` from an upload (`files`, in `workDir`, which is removed
 * whatever happens). A blank number or title is taken from the archive's ComicInfo.xml.
 */
export async function createDraft(db: DB, input: { seriesId: number; fields: DraftFields; files: UploadedFile[]; workDir: string; actor: Actor; store?: MediaStore }, now: number): Promise<DraftUploadResult> {
  const store = input.store ?? mediaStore();
  try {
    const series = await repo.seriesName(db, input.seriesId);
    if (series === undefined) return { ok: false, kind: 'field', error: 'series' };
    let staged;
    try {
      staged = await stageUpload(input.files, input.workDir);
    } catch (error) {
      if (error instanceof UploadError) return { ok: false, kind: 'upload', error };
      throw error;
    }
    const number = input.fields.number ?? staged.comicInfo?.number ?? null;
    if (number === null) return { ok: false, kind: 'field', error: 'number' };
    const title = input.fields.title ?? staged.comicInfo?.title ?? null;
    const moved: string[] = [];
    let draftId = 0;
    try {
      const pages = staged.pages;
      draftId = await writeTransaction(db, async (tx) => {
        const id = await repo.insertDraft(tx, { series_id: input.seriesId, language: input.fields.language, number, title, subtitle: input.fields.subtitle, created_by: input.actor.userId, created_at: now, updated_at: now });
        draftId = id;
        const keys = await moveIn(pages, id, store, moved);
        await repo.insertDraftPages(tx, pages.map((p, i) => ({ draft_id: id, position: i + 1, media_key: keys[i]!, width: p.width, height: p.height, original_name: p.name, bytes: p.bytes })));
        const bytes = pages.reduce((n, p) => n + p.bytes, 0);
        await writeAudit(tx, input.actor, { action: 'chapter_draft.create', object: { table: 'chapter_drafts', id }, before: null, after: { series_id: input.seriesId, language: input.fields.language, number, title, subtitle: input.fields.subtitle, pages: pages.length, bytes } }, now);
        return id;
      });
      return { ok: true, id: draftId, pages: pages.length };
    } catch (error) {
      await removeFiles(store, moved);
      if (draftId) await store.removeFolder(draftFolder(draftId)).catch(() => {});
      throw error;
    }
  } finally {
    await fsp.rm(input.workDir, { recursive: true, force: true });
  }
}

/**
 * More pages for a draft, after its last page; or, with `replace`, one image in place of that
 * page. `workDir` is removed whatever happens.
 */
export async function addDraftPages(db: DB, input: { draftId: number; replace: number | null; files: UploadedFile[]; workDir: string; actor: Actor; store?: MediaStore }, now: number): Promise<DraftUploadResult> {
  const store = input.store ?? mediaStore();
  const replaced: string[] = [];
  try {
    const draft = await repo.draftById(db, input.draftId);
    if (!draft) return { ok: false, kind: 'missing' };
    const pages = await repo.draftPages(db, draft.id);
    const old = input.replace === null ? null : pages.find((p) => p.position === input.replace);
    if (input.replace !== null && !old) return { ok: false, kind: 'missing' };
    const bytes = pages.reduce((n, p) => n + p.bytes, 0);
    // A replacement is numbered as the page it replaces, and counts without the old file.
    const existing = old ? { pages: old.position - 1, bytes: bytes - old.bytes } : { pages: pages.length, bytes };
    let staged;
    try {
      staged = await stageUpload(input.files, input.workDir, existing);
      if (old && staged.pages.length !== 1) throw new UploadError('replaceOne', old.position);
    } catch (error) {
      if (error instanceof UploadError) return { ok: false, kind: 'upload', error };
      throw error;
    }
    const moved: string[] = [];
    try {
      await writeTransaction(db, async (tx) => {
        const keys = await moveIn(staged.pages, draft.id, store, moved);
        if (old) {
          const p = staged.pages[0]!;
          await repo.replaceDraftPage(tx, draft.id, old.position, { media_key: keys[0]!, width: p.width, height: p.height, original_name: p.name, bytes: p.bytes });
          await writeAudit(tx, input.actor, { action: 'chapter_draft.page_replace', object: { table: 'chapter_drafts', id: draft.id }, before: { position: old.position, name: old.original_name, bytes: old.bytes }, after: { position: old.position, name: p.name, bytes: p.bytes } }, now);
        } else {
          await repo.insertDraftPages(tx, staged.pages.map((p, i) => ({ draft_id: draft.id, position: pages.length + i + 1, media_key: keys[i]!, width: p.width, height: p.height, original_name: p.name, bytes: p.bytes })));
          const added = staged.pages.reduce((n, p) => n + p.bytes, 0);
          await writeAudit(tx, input.actor, { action: 'chapter_draft.pages_add', object: { table: 'chapter_drafts', id: draft.id }, before: { pages: pages.length, bytes }, after: { pages: pages.length + staged.pages.length, bytes: bytes + added } }, now);
        }
        await repo.touchDraft(tx, draft.id, now);
      });
    } catch (error) {
      await removeFiles(store, moved);
      throw error;
    }
    if (old) replaced.push(old.media_key);
    return { ok: true, id: draft.id, pages: staged.pages.length };
  } finally {
    await fsp.rm(input.workDir, { recursive: true, force: true });
    await removeFiles(store, replaced);
  }
}

export type DraftEdit =
  | { action: 'up'; position: number }
  | { action: 'down'; position: number }
  | { action: 'delete'; position: number }
  /** Drag and drop: the page at `position` goes to `to`, the pages between shift by one. */
  | { action: 'move'; position: number; to: number }
  | { action: 'fields'; fields: DraftFields }
  | { action: 'discard' };

export type DraftEditResult = { ok: true; outcome: 'moved' | 'deleted' | 'saved' | 'discarded' | 'unchanged'; seriesId: number } | { ok: false; error: 'missing' | 'number' };

/** One change to a draft from its page's forms, with its audit record. */
export async function editDraft(db: DB, input: { draftId: number; edit: DraftEdit; actor: Actor; store?: MediaStore }, now: number): Promise<DraftEditResult> {
  const store = input.store ?? mediaStore();
  const { edit, actor } = input;
  const draft = await repo.draftById(db, input.draftId);
  if (!draft) return { ok: false, error: 'missing' };
  const pages = await repo.draftPages(db, draft.id);
  const object = { table: 'chapter_drafts', id: draft.id };
  if (edit.action === 'up' || edit.action === 'down' || edit.action === 'move') {
    const other = edit.action === 'up' ? edit.position - 1 : edit.action === 'down' ? edit.position + 1 : edit.to;
    const a = pages.find((p) => p.position === edit.position);
    const b = pages.find((p) => p.position === other);
    if (!a) return { ok: false, error: 'missing' };
    if (!b || other === edit.position) return { ok: true, outcome: 'unchanged', seriesId: draft.series_id };
    await writeTransaction(db, async (tx) => {
      // Neighbour swaps walk the page to its place, so the pages between keep their order.
      const step = other > edit.position ? 1 : -1;
      for (let at = edit.position; at !== other; at += step) await repo.swapDraftPages(tx, draft.id, at, at + step);
      await repo.touchDraft(tx, draft.id, now);
      await writeAudit(tx, actor, { action: 'chapter_draft.page_move', object, before: { position: a.position, name: a.original_name }, after: { position: other, name: a.original_name } }, now);
    });
    return { ok: true, outcome: 'moved', seriesId: draft.series_id };
  }
  if (edit.action === 'delete') {
    const page = pages.find((p) => p.position === edit.position);
    if (!page) return { ok: false, error: 'missing' };
    await writeTransaction(db, async (tx) => {
      await repo.deleteDraftPage(tx, draft.id, page.position);
      await repo.touchDraft(tx, draft.id, now);
      await writeAudit(tx, actor, { action: 'chapter_draft.page_delete', object, before: { position: page.position, name: page.original_name, bytes: page.bytes }, after: { pages: pages.length - 1 } }, now);
    });
    await removeFiles(store, [page.media_key]);
    return { ok: true, outcome: 'deleted', seriesId: draft.series_id };
  }
  if (edit.action === 'fields') {
    const number = edit.fields.number;
    if (number === null) return { ok: false, error: 'number' };
    const before = { language: draft.language, number: draft.number, title: draft.title, subtitle: draft.subtitle };
    const after = { language: edit.fields.language, number, title: edit.fields.title, subtitle: edit.fields.subtitle };
    if (JSON.stringify(before) === JSON.stringify(after)) return { ok: true, outcome: 'unchanged', seriesId: draft.series_id };
    await writeTransaction(db, async (tx) => {
      await repo.touchDraft(tx, draft.id, now, after);
      await writeAudit(tx, actor, { action: 'chapter_draft.update', object, before, after }, now);
    });
    return { ok: true, outcome: 'saved', seriesId: draft.series_id };
  }
  await discard(db, draft, pages, actor, 'chapter_draft.discard', now, store);
  return { ok: true, outcome: 'discarded', seriesId: draft.series_id };
}

async function discard(db: DB, draft: { id: number; series_id: number; number: number }, pages: readonly repo.DraftPageRow[], actor: AuditActor, action: string, now: number, store: MediaStore): Promise<void> {
  await writeTransaction(db, async (tx) => {
    await repo.deleteDraft(tx, draft.id);
    await writeAudit(tx, actor, { action, object: { table: 'chapter_drafts', id: draft.id }, before: { series_id: draft.series_id, number: draft.number, pages: pages.length }, after: null }, now);
  });
  await store.removeFolder(draftFolder(draft.id));
}

export interface DraftView {
  draft: repo.DraftRow;
  pages: repo.DraftPageRow[];
  bytes: number;
}

export async function draftView(db: DB, id: number): Promise<DraftView | null> {
  const draft = await repo.draftById(db, id);
  if (!draft) return null;
  const pages = await repo.draftPages(db, id);
  return { draft, pages, bytes: pages.reduce((n, p) => n + p.bytes, 0) };
}

/** A draft page's file, for the studio's own image route (never a public media route). */
export async function draftPageFile(db: DB, draftId: number, position: number, store: MediaStore = mediaStore()): Promise<StoredMedia | null> {
  const page = (await repo.draftPages(db, draftId)).find((p) => p.position === position);
  if (!page || !page.media_key.startsWith(draftFolder(draftId))) return null;
  return store.stat(page.media_key);
}

export async function seriesForNewChapter(db: DB, seriesId: number): Promise<{ id: number; name: string; drafts: Awaited<ReturnType<typeof repo.draftsOfSeries>> } | null> {
  const name = await repo.seriesName(db, seriesId);
  if (name === undefined) return null;
  return { id: seriesId, name, drafts: await repo.draftsOfSeries(db, seriesId) };
}

/**
 * The clean-up (`npm run studio -- cleanup-drafts`, docs/operations.md): drafts untouched for
 * a week go, with an audit record each (the command line as actor); then staging folders no
 * draft owns, and work folders older than a day (an upload a crash interrupted). Work folders are
 * on this machine's disk; with a bucket, the drafts' folders are in the bucket.
 */
export async function cleanupDrafts(db: DB, now: number, mediaDir: string = config.mediaDir, store: MediaStore = mediaStore()): Promise<{ drafts: number; folders: number }> {
  const stale = await repo.staleDrafts(db, now - DRAFT_TTL_SECONDS);
  for (const draft of stale) await discard(db, draft, await repo.draftPages(db, draft.id), commandLineActor('content'), 'chapter_draft.expire', now, store);
  const root = stagingRoot(mediaDir);
  let folders = store.kind === 'disk' ? 0 : await cleanupBucketStaging(db, now, store);
  let entries: import('node:fs').Dirent[] = [];
  try {
    entries = await fsp.readdir(root, { withFileTypes: true });
  } catch {
    return { drafts: stale.length, folders };
  }
  const owned = await repo.allDraftIds(db);
  for (const entry of entries) {
    const full = path.join(root, entry.name);
    // A draft's folder is made inside its transaction: one younger than an hour may be one
    // whose row is not committed yet.
    const age = now - (await fsp.stat(full)).mtimeMs / 1000;
    let remove = false;
    if (/^\d{1,12}$/.test(entry.name)) remove = store.kind === 'disk' && !owned.has(Number(entry.name)) && age > 60 * 60;
    else if (entry.name.startsWith('work-')) remove = age > WORK_TTL_SECONDS;
    if (remove) {
      await fsp.rm(full, { recursive: true, force: true });
      folders++;
    }
  }
  return { drafts: stale.length, folders };
}

/** The bucket's staging folders no draft owns, by their newest object (the same hour's grace as on disk). */
async function cleanupBucketStaging(db: DB, now: number, store: MediaStore): Promise<number> {
  const newest = new Map<number, number>();
  for await (const o of store.list(`${STAGING_DIR}/`)) {
    const id = /^\.staging\/(\d{1,12})\//.exec(o.key)?.[1];
    if (id) newest.set(Number(id), Math.max(newest.get(Number(id)) ?? 0, o.mtimeMs));
  }
  const owned = await repo.allDraftIds(db);
  let folders = 0;
  for (const [id, mtimeMs] of newest) {
    if (owned.has(id) || now - mtimeMs / 1000 <= 60 * 60) continue;
    await store.removeFolder(draftFolder(id));
    folders++;
  }
  return folders;
}

/** What an upload route answers: the draft, or a status with its message (and the form's values, to show it again). */
export type UploadAnswer =
  | { ok: true; id: number; pages: number }
  | { ok: false; status: number; message: { key: MessageKey; values?: Values }; form: URLSearchParams };

const FIELD_MESSAGES: Record<DraftFieldError, MessageKey> = {
  series: 'studio.chapters.error.series',
  language: 'studio.chapters.error.language',
  number: 'studio.chapters.error.number',
  title: 'studio.chapters.error.title',
};

function refusedBy(result: Exclude<DraftUploadResult, { ok: true }>, form: URLSearchParams): Extract<UploadAnswer, { ok: false }> {
  if (result.kind === 'upload') return { ok: false, status: result.error.status, message: { key: uploadErrorKey(result.error.code), values: uploadErrorArgs(result.error) }, form };
  if (result.kind === 'missing') return { ok: false, status: 404, message: { key: 'studio.chapters.error.missing' }, form };
  return { ok: false, status: result.error === 'series' ? 404 : 422, message: { key: FIELD_MESSAGES[result.error] }, form };
}

/** Reads an upload request into a fresh work folder; on a refusal the folder is already gone. */
async function receive(request: Request, mediaDir: string): Promise<{ ok: true; form: URLSearchParams; files: UploadedFile[]; workDir: string } | Extract<UploadAnswer, { ok: false }>> {
  const workDir = uploadWorkDir(mediaDir);
  const body = await readFileUpload(request, { ...UPLOAD_BODY, dir: workDir });
  if (body.ok) return { ok: true, form: body.fields, files: body.files.filter((f) => f.field === 'pages'), workDir };
  await fsp.rm(workDir, { recursive: true, force: true });
  const form = new URLSearchParams();
  if (body.limit === 'file') return { ok: false, status: 413, message: { key: 'studio.upload.error.fileTooLarge', values: uploadErrorArgs(new UploadError('fileTooLarge', null, body.file ?? '')) }, form };
  if (body.limit === 'files') return { ok: false, status: 413, message: { key: 'studio.upload.error.tooManyPages', values: uploadErrorArgs(new UploadError('tooManyPages')) }, form };
  if (body.status === 413) return { ok: false, status: 413, message: { key: 'studio.upload.error.chapterTooLarge', values: uploadErrorArgs(new UploadError('chapterTooLarge')) }, form };
  return { ok: false, status: body.status, message: { key: bodyErrorKey(body) }, form };
}

/** POST /studio/chapters/new/: the form's fields and pages, streamed to disk, become a draft. */
export async function uploadNewDraft(db: DB, request: Request, actor: Actor, now: number, mediaDir: string = config.mediaDir): Promise<UploadAnswer> {
  const got = await receive(request, mediaDir);
  if (!got.ok) return got;
  const seriesId = parseSeriesId(got.form.get('series'));
  const fields = parseDraftFields(got.form);
  if (seriesId === null || !fields.ok) {
    await fsp.rm(got.workDir, { recursive: true, force: true });
    return refusedBy({ ok: false, kind: 'field', error: seriesId === null ? 'series' : (fields as { error: DraftFieldError }).error }, got.form);
  }
  const result = await createDraft(db, { seriesId, fields: fields.value, files: got.files, workDir: got.workDir, actor }, now);
  return result.ok ? result : refusedBy(result, got.form);
}

/** POST /studio/chapters/drafts/{id}/pages/: more pages, or (field `replace`) one page replaced. */
export async function uploadDraftPages(db: DB, draftId: number, request: Request, actor: Actor, now: number, mediaDir: string = config.mediaDir): Promise<UploadAnswer & { replaced?: boolean }> {
  const got = await receive(request, mediaDir);
  if (!got.ok) return got;
  const rawReplace = got.form.get('replace');
  const replace = rawReplace ? Number(rawReplace) : null;
  if (replace !== null && !(Number.isInteger(replace) && replace >= 1 && replace <= UPLOAD_LIMITS.pages)) {
    await fsp.rm(got.workDir, { recursive: true, force: true });
    return refusedBy({ ok: false, kind: 'missing' }, got.form);
  }
  const result = await addDraftPages(db, { draftId, replace, files: got.files, workDir: got.workDir, actor }, now);
  return result.ok ? { ...result, replaced: replace !== null } : refusedBy(result, got.form);
}

/** Where a published chapter's pages live in the store: not under a public prefix, so only the reader's signed URLs serve them. */
export function publishedPageKey(e4pid: string, position: number, ext: string): string {
  return `chapters/${e4pid.toLowerCase()}/${String(position + 1).padStart(3, '0')}-${crypto.randomBytes(4).toString('hex')}.${ext}`;
}

const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';

async function newChapterE4pid(db: DB): Promise<string> {
  for (;;) {
    const bytes = crypto.randomBytes(8);
    const e4pid = `EPI-${[...bytes].map((b) => BASE36[b % 36]).join('')}`;
    if (!(await repo.e4pidTaken(db, e4pid))) return e4pid;
  }
}

export type PublishResult =
  | { ok: true; chapterId: number; e4pid: string; seriesId: number; releasedAt: number }
  | { ok: false; error: 'missing' | 'noPages' | 'duplicate' | 'expiry' };

/**
 * Publishes a draft (or schedules it: a future release time) as a chapter: the pages are linked
 * into the served layout (`chapters/{e4pid}/…`, behind the reader's signed URLs) and a
 * thumbnail made from the first, then the chapter, its pages, the series' language row and the
 * audit record are written and the draft deleted, in one transaction. The series' counters are
 * recomputed at once for a chapter out now (a scheduled one is counted by the release check at
 * its time), and the caches and page cache are emptied.
 */
export async function publishDraft(db: DB, input: { draftId: number; publish: PublishFields; actor: Actor; store?: MediaStore }, now: number): Promise<PublishResult> {
  const store = input.store ?? mediaStore();
  const { publish } = input;
  const draft = await repo.draftById(db, input.draftId);
  if (!draft) return { ok: false, error: 'missing' };
  const pages = await repo.draftPages(db, draft.id);
  if (pages.length === 0) return { ok: false, error: 'noPages' };
  if (await repo.chapterNumberTaken(db, draft.series_id, draft.language, draft.number)) return { ok: false, error: 'duplicate' };
  const releasedAt = publish.release === 'now' ? now : publish.release;
  const saleAt = publish.saleAt ?? releasedAt;
  if (publish.expiresAt !== null && publish.expiresAt <= Math.max(releasedAt, now)) return { ok: false, error: 'expiry' };
  const e4pid = await newChapterE4pid(db);
  const made: string[] = [];
  const keys = pages.map((p, i) => publishedPageKey(e4pid, i, p.media_key.split('.').at(-1)!));
  const thumbnail = `pool/thumbs/${e4pid.toLowerCase()}.webp`;
  try {
    for (const [i, page] of pages.entries()) {
      // A hard link on disk, a server-side copy in a bucket; the staging name goes with the draft.
      await store.copy(page.media_key, keys[i]!);
      made.push(keys[i]!);
    }
    const first = await store.bytes(pages[0]!.media_key);
    if (!first) throw new Error(`draft ${draft.id}'s first page is missing from the media store`);
    await store.put(thumbnail, await sharp(first, { limitInputPixels: 10_000 * 10_000 }).resize({ width: 175, height: 250, fit: 'cover', position: 'top' }).webp({ quality: 70 }).toBuffer(), 'image/webp');
    made.push(thumbnail);
    const chapterId = await writeTransaction(db, async (tx) => {
      await repo.ensureSeriesLanguage(tx, draft.series_id, draft.language, siteIdForLanguage(draft.language));
      const flags = publish.flags;
      const paid = publish.price > 0 && flags.purchase ? 1 : 0;
      const id = await repo.insertChapter(tx, {
        e4pid, series_id: draft.series_id, language: draft.language, number: draft.number, title: draft.title, subtitle: draft.subtitle,
        released_at: releasedAt, sale_at: saleAt, expired_at: publish.expiresAt, original_price: publish.price, thumbnail,
        purchase_enabled: flags.purchase ? 1 : 0, purchase_many_enabled: paid, daily_pass_enabled: flags.daily_pass ? 1 : 0, ads_enabled: flags.ads ? 1 : 0,
        rental_enabled: flags.rental ? 1 : 0, subscription_enabled: flags.subscription ? 1 : 0, page_count: pages.length, created_at: now,
      });
      await repo.insertChapterPages(tx, pages.map((p, i) => ({ chapter_id: id, position: i, media_key: keys[i]!, width: p.width, height: p.height })));
      await repo.deleteDraft(tx, draft.id);
      await writeAudit(tx, input.actor, {
        action: 'chapter.publish', object: { table: 'chapters', id },
        before: { draft: draft.id },
        after: { e4pid, series_id: draft.series_id, language: draft.language, number: draft.number, title: draft.title, price: publish.price, flags, released_at: releasedAt, sale_at: saleAt, expired_at: publish.expiresAt, pages: pages.length },
      }, now);
      return id;
    });
    await store.removeFolder(draftFolder(draft.id));
    if (releasedAt <= now) await refreshReleasedSeries(db, releasedAt - 1, now);
    catalogChanged();
    return { ok: true, chapterId, e4pid, seriesId: draft.series_id, releasedAt };
  } catch (error) {
    await removeFiles(store, made);
    throw error;
  }
}
