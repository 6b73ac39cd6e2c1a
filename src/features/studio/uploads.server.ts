/**
 * Staging a chapter's pages from an upload (docs/staff.md, "Chapter uploads"): several image
 * files, or one ZIP/CBZ. Everything lands in a work directory under the staging folder, never in
 * a served path; every refusal is an UploadError thrown before the caller publishes anything,
 * and the work directory is removed with it, so a refused upload leaves no file behind.
 *
 * Archives are read with yauzl (docs/decisions.md): the central directory first, so bad names,
 * links and declared sizes are refused before a byte is inflated; then each page is inflated
 * while counting the bytes that actually come out, stopping at the first byte past what the
 * entry declared or the limits allow (a bomb that lies about its sizes is stopped there).
 * Each page is then judged by content: its first bytes, then sharp reads its size and decodes it
 * whole, so a truncated image with a valid header is refused too.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import sharp from 'sharp';
import yauzl from 'yauzl';
import { comicInfoOrder, COMIC_INFO_MAX_BYTES, parseComicInfo, type ComicInfo } from './comic-info';
import {
  displayName,
  IMAGE_EXTENSIONS,
  isComicInfo,
  isIgnoredEntry,
  isZip,
  naturalCompare,
  sniffImage,
  SNIFF_BYTES,
  unsafeEntryName,
  UploadError,
  UPLOAD_LIMITS,
  type ImageFormat,
  type UploadLimits,
} from './uploads';

/** A file the request brought, already on disk inside the work directory. */
export interface IncomingFile {
  path: string;
  /** The name the browser gave (for ordering and messages only). */
  name: string;
  size: number;
}

export interface StagedPage {
  /** Where the page is, inside the work directory. */
  file: string;
  name: string;
  bytes: number;
  width: number;
  height: number;
  format: ImageFormat;
  ext: string;
}

export interface StagedUpload {
  pages: StagedPage[];
  comicInfo: ComicInfo | null;
}

/** What the draft already holds: the new pages count against the chapter's limits with it. */
export interface ExistingPages {
  pages: number;
  bytes: number;
}

/**
 * Stages `files` (in `workDir`) as pages, in chapter order, numbered after `existing.pages`.
 * Throws UploadError on any refusal, and any other error as is; either way `workDir` is gone.
 */
export async function stageUpload(files: readonly IncomingFile[], workDir: string, existing: ExistingPages = { pages: 0, bytes: 0 }, limits: UploadLimits = UPLOAD_LIMITS): Promise<StagedUpload> {
  try {
    return await stage(files, workDir, existing, limits);
  } catch (error) {
    await fsp.rm(workDir, { recursive: true, force: true });
    throw error;
  }
}

async function stage(files: readonly IncomingFile[], workDir: string, existing: ExistingPages, limits: UploadLimits): Promise<StagedUpload> {
  if (files.length === 0) throw new UploadError('noFiles');
  const heads = await Promise.all(files.map((f) => readHead(f.path)));
  const archive = heads.findIndex((h) => isZip(h));
  if (archive >= 0) {
    if (files.length > 1) throw new UploadError('oneArchive', null, displayName(files[archive]!.name));
    return stageArchive(files[0]!, workDir, existing, limits);
  }
  const ordered = files.map((f, i) => ({ file: f, head: heads[i]! })).sort((a, b) => naturalCompare(a.file.name, b.file.name));
  if (existing.pages + ordered.length > limits.pages) throw new UploadError('tooManyPages');
  let total = existing.bytes;
  for (const [i, { file }] of ordered.entries()) {
    total += file.size;
    if (file.size > limits.fileBytes) throw new UploadError('fileTooLarge', existing.pages + i + 1, displayName(file.name));
    if (total > limits.chapterBytes) throw new UploadError('chapterTooLarge');
  }
  const pages: StagedPage[] = [];
  for (const [i, { file, head }] of ordered.entries()) {
    const page = existing.pages + i + 1;
    const name = displayName(file.name);
    if (file.size === 0) throw new UploadError('empty', page, name);
    const format = sniffImage(head);
    if (!format) throw new UploadError('notImage', page, name);
    pages.push({ file: file.path, name, bytes: file.size, format, ext: IMAGE_EXTENSIONS[format], ...(await judgeImage(file.path, format, page, name, limits)) });
  }
  return { pages, comicInfo: null };
}

async function readHead(file: string): Promise<Uint8Array> {
  const handle = await fsp.open(file, 'r');
  try {
    const buffer = new Uint8Array(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** sharp's name for each format (AVIF is a HEIF container to libvips). */
const SHARP_FORMAT: Record<ImageFormat, string> = { jpeg: 'jpeg', png: 'png', webp: 'webp', avif: 'heif', gif: 'gif' };

/**
 * The page's size, after checking that the decoder agrees with its first bytes, that it fits
 * the side limit (read from the header, before decoding) and that it decodes to the end.
 */
async function judgeImage(file: string, format: ImageFormat, page: number, name: string, limits: UploadLimits): Promise<{ width: number; height: number }> {
  let width: number;
  let height: number;
  try {
    const meta = await sharp(file, { limitInputPixels: false }).metadata();
    if (meta.format !== SHARP_FORMAT[format] || !meta.width || !meta.height) throw new UploadError('corrupt', page, name);
    width = meta.width;
    height = meta.pageHeight ?? meta.height;
  } catch (error) {
    if (error instanceof UploadError) throw error;
    throw new UploadError('corrupt', page, name);
  }
  if (width > limits.side || height > limits.side) throw new UploadError('tooWide', page, name);
  try {
    // stats() decodes every pixel (without keeping the image), so a cut-off file fails here.
    await sharp(file, { failOn: 'error', limitInputPixels: limits.side * limits.side }).stats();
  } catch {
    throw new UploadError('corrupt', page, name);
  }
  return { width, height };
}

// ---------------------------------------------------------------- archives

interface PageEntry {
  entry: yauzl.Entry;
  name: string;
}

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    // decodeStrings off: yauzl would refuse a bad name with an untyped error for the whole file;
    // we decode and judge each name ourselves (same rules, plus our own).
    yauzl.open(file, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: false }, (error, zip) => (error || !zip ? reject(new UploadError('zipUnreadable')) : resolve(zip)));
  });
}

/** Every entry of the central directory; nothing is inflated yet. */
function listEntries(zip: yauzl.ZipFile, limits: UploadLimits): Promise<yauzl.Entry[]> {
  if (zip.entryCount > limits.entries) return Promise.reject(new UploadError('tooManyPages'));
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    zip.on('entry', (entry: yauzl.Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', () => reject(new UploadError('zipUnreadable')));
    zip.readEntry();
  });
}

function entryName(entry: yauzl.Entry): string {
  const raw = entry.fileName as unknown as Buffer;
  // strictFileNames: keep backslashes as they are, so that they are refused, not converted.
  return yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, raw, entry.extraFields, true);
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

function isLink(entry: yauzl.Entry): boolean {
  return ((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK;
}

function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => (error || !stream ? reject(new UploadError('zipUnreadable', null, null)) : resolve(stream)));
  });
}

/**
 * Inflates one entry, counting what comes out: more than it declared (or than `max`) is a bomb,
 * and the stream is stopped at that byte. When `sniff` is set, the first bytes must announce an
 * image, checked as soon as they arrive. Returns what was written and the format.
 */
async function inflate(zip: yauzl.ZipFile, entry: yauzl.Entry, dest: string | null, max: number, onBomb: () => UploadError, sniff: (() => UploadError) | null): Promise<{ bytes: number; format: ImageFormat | null; data: Buffer | null }> {
  const stream = await openEntry(zip, entry);
  let count = 0;
  let head = Buffer.alloc(0);
  let format: ImageFormat | null = null;
  const chunks: Buffer[] = [];
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      count += chunk.length;
      if (count > entry.uncompressedSize || count > max) return done(onBomb());
      if (sniff && format === null) {
        head = Buffer.concat([head, chunk]).subarray(0, SNIFF_BYTES);
        if (head.length >= SNIFF_BYTES) {
          format = sniffImage(head);
          if (!format) return done(sniff());
        }
      }
      if (!dest) chunks.push(chunk);
      done(null, chunk);
    },
    flush(done) {
      if (sniff && format === null) {
        format = sniffImage(head);
        if (!format) return done(sniff());
      }
      done();
    },
  });
  try {
    if (dest) await pipeline(stream, counter, fs.createWriteStream(dest, { flags: 'wx' }));
    else await pipeline(stream, counter);
  } catch (error) {
    stream.destroy();
    if (error instanceof UploadError) throw error;
    // A broken deflate stream, a bad local header, a CRC yauzl checks.
    throw new UploadError('zipUnreadable', null, displayName(entryName(entry)));
  }
  return { bytes: count, format, data: dest ? null : Buffer.concat(chunks) };
}

async function stageArchive(file: IncomingFile, workDir: string, existing: ExistingPages, limits: UploadLimits): Promise<StagedUpload> {
  if (file.size > limits.chapterBytes) throw new UploadError('chapterTooLarge');
  const zip = await openZip(file.path);
  try {
    const entries = await listEntries(zip, limits);
    const candidates: PageEntry[] = [];
    let comicInfoEntry: yauzl.Entry | null = null;
    for (const entry of entries) {
      const name = entryName(entry);
      if (unsafeEntryName(name)) throw new UploadError('zipPath', null, name.slice(0, 200));
      if (name.endsWith('/')) continue;
      if (isLink(entry)) throw new UploadError('zipLink', null, displayName(name));
      if (isIgnoredEntry(name)) continue;
      if (isComicInfo(name)) {
        comicInfoEntry ??= entry;
        continue;
      }
      if (entry.isEncrypted() || (entry.compressionMethod !== 0 && entry.compressionMethod !== 8)) throw new UploadError('zipUnreadable', null, displayName(name));
      candidates.push({ entry, name });
    }
    candidates.sort((a, b) => naturalCompare(a.name, b.name));
    if (candidates.length === 0) throw new UploadError('noFiles');
    if (existing.pages + candidates.length > limits.pages) throw new UploadError('tooManyPages');

    // Declared sizes first: an archive that admits to a bomb is refused before inflating anything.
    let declared = existing.bytes;
    for (const [i, { entry, name }] of candidates.entries()) {
      const page = existing.pages + i + 1;
      if (entry.uncompressedSize === 0) throw new UploadError('empty', page, displayName(name));
      if (entry.uncompressedSize > limits.ratioFloor && entry.uncompressedSize > limits.ratio * Math.max(1, entry.compressedSize)) throw new UploadError('zipBomb', page, displayName(name));
      if (entry.uncompressedSize > limits.fileBytes) throw new UploadError('fileTooLarge', page, displayName(name));
      declared += entry.uncompressedSize;
      if (declared > limits.chapterBytes) throw new UploadError('chapterTooLarge');
    }

    let comicInfo: ComicInfo | null = null;
    if (comicInfoEntry && comicInfoEntry.uncompressedSize <= COMIC_INFO_MAX_BYTES && !comicInfoEntry.isEncrypted()) {
      const { data } = await inflate(zip, comicInfoEntry, null, COMIC_INFO_MAX_BYTES, () => new UploadError('zipBomb', null, 'ComicInfo.xml'), null);
      try {
        comicInfo = parseComicInfo(new TextDecoder('utf-8', { fatal: true }).decode(data!));
      } catch {
        comicInfo = null; // not UTF-8: not read
      }
    }
    const order = comicInfoOrder(comicInfo, candidates.length);
    const ordered = order ? order.map((i) => candidates[i]!) : candidates;

    const dir = await fsp.mkdtemp(path.join(workDir, 'pages-'));
    const pages: StagedPage[] = [];
    let total = existing.bytes;
    for (const [i, { entry, name }] of ordered.entries()) {
      const page = existing.pages + i + 1;
      const shown = displayName(name);
      const dest = path.join(dir, String(i));
      const room = Math.min(limits.fileBytes, limits.chapterBytes - total);
      const { bytes, format } = await inflate(zip, entry, dest, room, () => new UploadError('zipBomb', page, shown), () => new UploadError('notImage', page, shown));
      total += bytes;
      if (bytes === 0) throw new UploadError('empty', page, shown);
      pages.push({ file: dest, name: shown, bytes, format: format!, ext: IMAGE_EXTENSIONS[format!], ...(await judgeImage(dest, format!, page, shown, limits)) });
    }
    return { pages, comicInfo };
  } finally {
    zip.close();
  }
}
