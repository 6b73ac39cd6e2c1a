/**
 * The rules of chapter page uploads (issue 27, docs/staff.md "Chapter uploads"): the limits,
 * the refusals and how each is answered, what an image is (by its first bytes, never its name),
 * which archive names are refused or ignored, and the page order. Pure: the server side that
 * streams, inflates and decodes is uploads.server.ts.
 */

const MB = 1024 * 1024;

export interface UploadLimits {
  /** One page (an image file or a ZIP entry), inflated. */
  fileBytes: number;
  /** All of a chapter's pages together, inflated (and the upload itself). */
  chapterBytes: number;
  pages: number;
  /** Width and height, each. */
  side: number;
  /** An entry that inflates to more than `ratio` times its compressed size... */
  ratio: number;
  /** ...and to more than this is a bomb (small entries compress wildly and are harmless). */
  ratioFloor: number;
  /** Entries of any kind in one archive (directories and ignored files included). */
  entries: number;
}

export const UPLOAD_LIMITS: UploadLimits = {
  fileBytes: 20 * MB,
  chapterBytes: 300 * MB,
  pages: 500,
  side: 10_000,
  ratio: 100,
  ratioFloor: 1 * MB,
  entries: 5_000,
};

export const UPLOAD_ERROR_CODES = [
  'noFiles',
  'empty',
  'notImage',
  'corrupt',
  'fileTooLarge',
  'tooWide',
  'tooManyPages',
  'chapterTooLarge',
  'oneArchive',
  'zipUnreadable',
  'zipPath',
  'zipLink',
  'zipBomb',
  'replaceOne',
] as const;
export type UploadErrorCode = (typeof UPLOAD_ERROR_CODES)[number];

/** The answer's status: too big is 413, not an image 415, anything else wrong with it 422. */
export const UPLOAD_ERROR_STATUS: Record<UploadErrorCode, 413 | 415 | 422> = {
  noFiles: 422,
  empty: 422,
  notImage: 415,
  corrupt: 422,
  fileTooLarge: 413,
  tooWide: 422,
  tooManyPages: 413,
  chapterTooLarge: 413,
  oneArchive: 422,
  zipUnreadable: 422,
  zipPath: 422,
  zipLink: 422,
  zipBomb: 413,
  replaceOne: 422,
};

/** A refusal: its code, the page (1-based, in chapter order) and the file or entry name it is about. */
export class UploadError extends Error {
  readonly status: 413 | 415 | 422;
  constructor(
    readonly code: UploadErrorCode,
    readonly page: number | null = null,
    readonly file: string | null = null,
  ) {
    super(`upload refused: ${code}${page === null ? '' : ` (page ${page})`}${file === null ? '' : ` ${file}`}`);
    this.status = UPLOAD_ERROR_STATUS[code];
  }
}

/** The catalogue key of a refusal's message (`studio.upload.error.{code}`, arguments page, name, limit). */
export function uploadErrorKey(code: UploadErrorCode): `studio.upload.error.${UploadErrorCode}` {
  return `studio.upload.error.${code}`;
}

/** The arguments of a refusal's message. */
export function uploadErrorArgs(error: UploadError, limits: UploadLimits = UPLOAD_LIMITS): Record<string, string | number> {
  return {
    page: error.page ?? 0,
    name: error.file ?? '',
    mb: Math.round((error.code === 'chapterTooLarge' ? limits.chapterBytes : limits.fileBytes) / MB),
    limit: error.code === 'tooWide' ? limits.side : limits.pages,
  };
}

export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'avif' | 'gif';

export const IMAGE_EXTENSIONS: Record<ImageFormat, string> = { jpeg: 'jpg', png: 'png', webp: 'webp', avif: 'avif', gif: 'gif' };

/** Bytes enough to tell every accepted format (an AVIF's brands come within the first 32). */
export const SNIFF_BYTES = 32;

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}

/** The image format the first bytes announce, or null. The decoder confirms it later. */
export function sniffImage(head: Uint8Array): ImageFormat | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => head[i] === b)) return 'png';
  if (head.length >= 6 && (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a')) return 'gif';
  if (head.length >= 12 && ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'webp';
  if (head.length >= 12 && ascii(head, 4, 8) === 'ftyp') {
    // The major brand, then the compatible brands after the minor version, within the box.
    const boxSize = ((head[0]! << 24) | (head[1]! << 16) | (head[2]! << 8) | head[3]!) >>> 0;
    const end = Math.min(head.length, boxSize);
    const brands = [ascii(head, 8, 12)];
    for (let at = 16; at + 4 <= end; at += 4) brands.push(ascii(head, at, at + 4));
    if (brands.some((b) => b === 'avif' || b === 'avis')) return 'avif';
  }
  return null;
}

/** A ZIP (a CBZ is one): a local file header, or the end record of an empty archive. */
export function isZip(head: Uint8Array): boolean {
  return head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && ((head[2] === 3 && head[3] === 4) || (head[2] === 5 && head[3] === 6));
}

/**
 * Why an archive entry's name is refused: it climbs out of the archive (`..`, an absolute
 * path, a drive letter, a backslash that some tools read as a separator), or holds characters
 * no file name should (NUL and other controls). Null when it is fine.
 */
export function unsafeEntryName(name: string): 'zipPath' | null {
  if (!name || name.includes('\\') || name.startsWith('/') || /^[a-zA-Z]:/.test(name)) return 'zipPath';
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'zipPath';
  if (name.split('/').some((part) => part === '..')) return 'zipPath';
  return null;
}

/** Entries that are no page and no refusal: macOS resource forks, dotfiles, Windows thumbnails. */
export function isIgnoredEntry(name: string): boolean {
  const parts = name.split('/').filter(Boolean);
  if (parts[0] === '__MACOSX') return true;
  if (parts.some((p) => p.startsWith('.'))) return true;
  const base = (parts.at(-1) ?? '').toLowerCase();
  return base === 'thumbs.db' || base === 'desktop.ini';
}

export function isComicInfo(name: string): boolean {
  return (name.split('/').at(-1) ?? '').toLowerCase() === 'comicinfo.xml';
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Natural file-name order: `2.png` before `10.png`; ties broken by the exact name. */
export function naturalCompare(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** The last part of a path, cut to a length a page can show. */
export function displayName(name: string): string {
  return (name.split('/').at(-1) ?? name).slice(0, 200);
}
