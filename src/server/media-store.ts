/**
 * Where media lives: one interface, two stores. The disk store keeps files under `MEDIA_DIR`
 * (one machine); the S3 store keeps objects in a bucket (`MEDIA_STORE=s3://bucket/prefix`), so
 * several machines serve the same originals and renditions (docs/operations.md, "Media").
 * Every reader and writer of media goes through `mediaStore()`; the media routes stream from it
 * (docs/decisions.md, "Media in an object store"). Keys are checked here, once, the same for
 * both stores: no absolute paths, `..` or `.` parts, empty parts, backslashes or NUL.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { config, type S3StoreConfig } from './config.mjs';

/** One stored object: its key, size in bytes and last change (ms since the epoch). */
export interface StoredMedia {
  key: string;
  size: number;
  mtimeMs: number;
}

export interface MediaStore {
  readonly kind: 'disk' | 's3';
  /** Where, for messages (`/srv/media`, `s3://bucket/prefix`). */
  readonly location: string;
  /** The object's size and date, or null when there is none (or the key is not a valid key). */
  stat(key: string): Promise<StoredMedia | null>;
  exists(key: string): Promise<boolean>;
  /** The object with a stream of its bytes (one request on S3), or null. */
  get(key: string): Promise<{ info: StoredMedia; body: ReadableStream<Uint8Array> } | null>;
  /** The whole object in memory (to decode an image), or null. */
  bytes(key: string): Promise<Buffer | null>;
  /** Writes an object whole: readers see the old one or the new one, never half. */
  put(key: string, data: Uint8Array, contentType?: string): Promise<void>;
  /** Takes a local file in as `key`; the file may be moved (disk) or left for the caller to remove (S3). */
  putFile(key: string, file: string, contentType?: string): Promise<void>;
  copy(from: string, to: string): Promise<void>;
  /** Removes one object; a missing one is not an error. */
  remove(key: string): Promise<void>;
  /** Removes every object under a folder (`prefix` ends in `/`: a draft's staging folder). */
  removeFolder(prefix: string): Promise<void>;
  /** Every object whose key starts with `prefix` (`''`: all), in no promised order. */
  list(prefix: string): AsyncIterable<StoredMedia>;
}

export class MediaKeyError extends Error {}

/**
 * Whether a string may be a media key: relative, `/`-separated, at most 512 characters, no empty,
 * `.` or `..` part, no backslash or NUL. Both stores refuse anything else, so a key can never
 * name a file outside MEDIA_DIR nor an object outside the bucket's prefix.
 */
export function isMediaKey(key: string): boolean {
  if (typeof key !== 'string' || !key || key.length > 512 || /[\\\0]/.test(key) || key.startsWith('/') || path.isAbsolute(key)) return false;
  return !key.split('/').some((part) => part === '..' || part === '.' || part === '');
}

function checked(key: string): string {
  if (!isMediaKey(key)) throw new MediaKeyError(`not a media key: ${JSON.stringify(key).slice(0, 80)}`);
  return key;
}

const TYPES: Record<string, string> = { webp: 'image/webp', avif: 'image/avif', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif' };
const typeOf = (key: string) => TYPES[key.split('.').at(-1)?.toLowerCase() ?? ''] ?? 'application/octet-stream';

/* ---------------------------------------------------------------- disk */

/** Files the disk store never lists: half-written temporaries and the uploads' scratch folders. */
const SCRATCH = /(\.tmp$)|(^\.staging\/work-)/;

export class DiskMediaStore implements MediaStore {
  readonly kind = 'disk' as const;
  readonly location: string;
  constructor(readonly root: string) {
    this.location = path.resolve(root);
  }

  /** The real path of a key's file inside the folder, or null (a bad key, a symlink out of it, not a regular file). */
  file(key: string): { file: string; stat: fs.Stats } | null {
    if (!isMediaKey(key)) return null;
    const base = this.location;
    const file = path.resolve(base, key);
    if (!file.startsWith(base + path.sep)) return null;
    try {
      const real = fs.realpathSync(file);
      const realBase = fs.realpathSync(base);
      if (!real.startsWith(realBase + path.sep)) return null;
      const stat = fs.statSync(real);
      return stat.isFile() ? { file: real, stat } : null;
    } catch {
      return null;
    }
  }

  private target(key: string): string {
    return path.join(this.location, ...checked(key).split('/'));
  }

  async stat(key: string): Promise<StoredMedia | null> {
    const f = this.file(key);
    return f ? { key, size: f.stat.size, mtimeMs: f.stat.mtimeMs } : null;
  }

  async exists(key: string): Promise<boolean> {
    return this.file(key) !== null;
  }

  async get(key: string): Promise<{ info: StoredMedia; body: ReadableStream<Uint8Array> } | null> {
    const f = this.file(key);
    if (!f) return null;
    const body = Readable.toWeb(fs.createReadStream(f.file)) as unknown as ReadableStream<Uint8Array>;
    return { info: { key, size: f.stat.size, mtimeMs: f.stat.mtimeMs }, body };
  }

  async bytes(key: string): Promise<Buffer | null> {
    const f = this.file(key);
    return f ? fs.promises.readFile(f.file) : null;
  }

  async put(key: string, data: Uint8Array): Promise<void> {
    const file = this.target(key);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      await fs.promises.writeFile(tmp, data, { flag: 'wx' });
      await fs.promises.rename(tmp, file);
    } catch (e) {
      await fs.promises.rm(tmp, { force: true });
      throw e;
    }
  }

  async putFile(key: string, source: string): Promise<void> {
    const file = this.target(key);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    // Uploads are received inside MEDIA_DIR, so this is a rename: instant, no second copy.
    await fs.promises.rename(source, file).catch(() => fs.promises.copyFile(source, file));
  }

  async copy(from: string, to: string): Promise<void> {
    const source = this.file(from);
    if (!source) throw new Error(`no media ${from}`);
    const dest = this.target(to);
    await fs.promises.mkdir(path.dirname(dest), { recursive: true });
    // A hard link: instant and no second copy (the source may be removed later).
    await fs.promises.link(source.file, dest).catch(() => fs.promises.copyFile(source.file, dest));
  }

  async remove(key: string): Promise<void> {
    const f = this.file(key);
    if (f) await fs.promises.rm(f.file, { force: true });
  }

  async removeFolder(prefix: string): Promise<void> {
    if (!prefix.endsWith('/')) throw new MediaKeyError(`not a folder: ${prefix}`);
    await fs.promises.rm(this.target(prefix.slice(0, -1)), { recursive: true, force: true });
  }

  async *list(prefix: string): AsyncIterable<StoredMedia> {
    const walk = async function* (dir: string, rel: string): AsyncGenerator<StoredMedia> {
      let entries: fs.Dirent[];
      try {
        entries = await fs.promises.readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries) {
        const key = rel ? `${rel}/${e.name}` : e.name;
        if (SCRATCH.test(key)) continue;
        // Only walk folders that can hold keys under the prefix.
        if (e.isDirectory()) {
          if (prefix.startsWith(`${key}/`) || key.startsWith(prefix) || `${key}/`.startsWith(prefix)) yield* walk(path.join(dir, e.name), key);
        } else if (e.isFile() && key.startsWith(prefix) && isMediaKey(key)) {
          const stat = await fs.promises.stat(path.join(dir, e.name));
          yield { key, size: stat.size, mtimeMs: stat.mtimeMs };
        }
      }
    };
    yield* walk(this.location, '');
  }
}

/* ------------------------------------------------------------------ S3 */

function notFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

/** The S3 client for a store's settings (also used by `npm run media` and the tests). */
export function s3Client(c: S3StoreConfig): S3Client {
  const client = new S3Client({
    region: c.region,
    ...(c.endpoint ? { endpoint: c.endpoint } : {}),
    forcePathStyle: c.forcePathStyle,
    ...(c.accessKeyId && c.secretAccessKey ? { credentials: { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey } } : {}),
    // Checksums only where S3 requires them: S3-compatible stores (MinIO, R2, Garage…) do not all take the SDK's newer defaults.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
  });
  if (c.forcePathStyle) {
    // Bucket-level calls (the listing) go to `/bucket`, not `/bucket/`: the same resource for S3,
    // but some S3-compatible services (s3rver, the tests' server) sign it without the slash.
    const bucketPath = `/${c.bucket}/`;
    client.middlewareStack.add((next) => (args) => {
      const request = args.request as { path?: string };
      if (request.path === bucketPath) request.path = bucketPath.slice(0, -1);
      return next(args);
    }, { step: 'build', name: 'inkpassBucketPath' });
  }
  return client;
}

export class S3MediaStore implements MediaStore {
  readonly kind = 's3' as const;
  readonly location: string;
  readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(c: S3StoreConfig, client: S3Client = s3Client(c)) {
    this.client = client;
    this.bucket = c.bucket;
    this.prefix = c.prefix ? `${c.prefix}/` : '';
    this.location = `s3://${c.bucket}/${c.prefix}`;
  }

  private name(key: string): string {
    return this.prefix + checked(key);
  }

  async stat(key: string): Promise<StoredMedia | null> {
    if (!isMediaKey(key)) return null;
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.name(key) }));
      return { key, size: head.ContentLength ?? 0, mtimeMs: head.LastModified?.getTime() ?? 0 };
    } catch (error) {
      if (notFound(error)) return null;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  private async object(key: string) {
    if (!isMediaKey(key)) return null;
    try {
      return await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.name(key) }));
    } catch (error) {
      if (notFound(error)) return null;
      throw error;
    }
  }

  async get(key: string): Promise<{ info: StoredMedia; body: ReadableStream<Uint8Array> } | null> {
    const got = await this.object(key);
    if (!got?.Body) return null;
    return { info: { key, size: got.ContentLength ?? 0, mtimeMs: got.LastModified?.getTime() ?? 0 }, body: got.Body.transformToWebStream() as ReadableStream<Uint8Array> };
  }

  async bytes(key: string): Promise<Buffer | null> {
    const got = await this.object(key);
    return got?.Body ? Buffer.from(await got.Body.transformToByteArray()) : null;
  }

  async put(key: string, data: Uint8Array, contentType = typeOf(key)): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.name(key), Body: data, ContentType: contentType, ContentLength: data.byteLength }));
  }

  async putFile(key: string, file: string, contentType = typeOf(key)): Promise<void> {
    // Pages and images are at most a few tens of MB (the upload limits): one PUT each.
    await this.put(key, await fs.promises.readFile(file), contentType);
  }

  async copy(from: string, to: string): Promise<void> {
    // Server-side: the bytes never pass through this machine. Keys are [A-Za-z0-9/._-], nothing to escape.
    await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: this.name(to), CopySource: encodeURI(`${this.bucket}/${this.name(from)}`) }));
  }

  async remove(key: string): Promise<void> {
    if (!isMediaKey(key)) return;
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.name(key) }));
  }

  async removeFolder(prefix: string): Promise<void> {
    if (!prefix.endsWith('/')) throw new MediaKeyError(`not a folder: ${prefix}`);
    checked(prefix.slice(0, -1));
    for await (const o of this.list(prefix)) await this.remove(o.key);
  }

  async *list(prefix: string): AsyncIterable<StoredMedia> {
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix + prefix, ContinuationToken: token }));
      for (const o of page.Contents ?? []) {
        const key = (o.Key ?? '').slice(this.prefix.length);
        if (isMediaKey(key)) yield { key, size: o.Size ?? 0, mtimeMs: o.LastModified?.getTime() ?? 0 };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
}

/* --------------------------------------------------------------- which */

let current: MediaStore | null = null;

/** The configured store (`MEDIA_STORE`; the disk store under MEDIA_DIR when unset), made once per process. */
export function mediaStore(): MediaStore {
  current ??= config.mediaStore.kind === 's3' ? new S3MediaStore(config.mediaStore) : new DiskMediaStore(config.mediaDir);
  return current;
}
