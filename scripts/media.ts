/**
 * npm run media -- copy --to s3://bucket/prefix [--from DIR]
 *
 * Copies an install's media folder (MEDIA_DIR, or --from) into a bucket, reached with the S3_*
 * settings as the server reads them (docs/operations.md, "Moving media to a bucket"). Originals,
 * staged drafts and renditions alike; uploads' scratch folders and half-written files are left.
 * Safe to run again: an object already in the bucket with the same size is skipped, so a second
 * run after a partial one copies only what is missing. Prints what it did, in counts.
 */
import path from 'node:path';
import { config, readMediaStore } from '~/server/config.mjs';
import { DiskMediaStore, S3MediaStore, type StoredMedia } from '~/server/media-store';

const USAGE = 'Usage: npm run media -- copy --to s3://bucket/prefix [--from DIR]';

function parse(argv: string[]): { to: string; from: string } | null {
  if (argv[0] !== 'copy') return null;
  const opts: Record<string, string> = {};
  for (let i = 1; i < argv.length; i += 2) {
    const name = argv[i];
    const value = argv[i + 1];
    if ((name !== '--to' && name !== '--from') || value === undefined || name.slice(2) in opts) return null;
    opts[name.slice(2)] = value;
  }
  const to = opts.to ?? (process.env.MEDIA_STORE?.startsWith('s3://') ? process.env.MEDIA_STORE : undefined);
  return to ? { to, from: path.resolve(opts.from ?? config.mediaDir) } : null;
}

const args = parse(process.argv.slice(2));
if (!args) {
  console.error(USAGE);
  process.exit(2);
}
let target;
try {
  target = readMediaStore(process.env, args.to);
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
if (target.kind !== 's3') {
  console.error(`--to must be a bucket (s3://bucket/prefix). ${USAGE}`);
  process.exit(2);
}
const source = new DiskMediaStore(args.from);
const bucket = new S3MediaStore(target);
let copied = 0;
let skipped = 0;
let bytes = 0;

async function one(o: StoredMedia): Promise<void> {
  const there = await bucket.stat(o.key);
  if (there && there.size === o.size) {
    skipped++;
    return;
  }
  const data = await source.bytes(o.key);
  if (!data) return; // removed while copying
  await bucket.put(o.key, data);
  copied++;
  bytes += data.byteLength;
}

try {
  // A few at a time: a bucket answers each request in tens of ms, a folder has thousands of files.
  const running = new Set<Promise<void>>();
  for await (const o of source.list('')) {
    const p = one(o).finally(() => running.delete(p));
    running.add(p);
    if (running.size >= 8) await Promise.race(running);
  }
  await Promise.all(running);
} catch (error) {
  console.error(`Copy stopped after ${copied} file(s): ${(error as Error).message}. Run it again to go on.`);
  process.exit(1);
}
console.log(`Copied ${copied} file(s) (${(bytes / 1024 / 1024).toFixed(1)} MB) from ${source.location} to ${bucket.location}; ${skipped} already there were skipped.`);
bucket.client.destroy();
