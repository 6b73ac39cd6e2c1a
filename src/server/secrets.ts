/**
 * The server's signing keys. One root secret, from `INKPASS_SECRET` or, when none is configured,
 * generated at random on first use and kept in `{DATA_DIR}/secret.key` (mode 0600) so restarts
 * agree and the quick start needs no set-up. It never falls back to a value in the repository:
 * a URL or token signed on one install cannot be forged from the source code.
 *
 * Each purpose gets its own key, derived with HKDF-SHA256, so a signature made for one kind of
 * token never verifies as another (a progress token is no page URL, a page URL no webhook).
 * Several processes on one database must share the root secret: set `INKPASS_SECRET` on each
 * (docs/operations.md).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { config } from './config.mjs';

export type KeyPurpose = 'page-url' | 'progress-token' | 'app-token' | 'payment-webhook' | 'app-check' | 'app-check-key' | 'log-reader';

/** Bytes of a generated root secret. */
const GENERATED_BYTES = 32;
const FILE_NAME = 'secret.key';

let root: Buffer | undefined;
const derived = new Map<KeyPurpose, Buffer>();

/** The key for one purpose (32 bytes). */
export function keyFor(purpose: KeyPurpose): Buffer {
  let key = derived.get(purpose);
  if (!key) {
    key = Buffer.from(crypto.hkdfSync('sha256', rootSecret(), 'inkpass', `inkpass:${purpose}:v1`, 32));
    derived.set(purpose, key);
  }
  return key;
}

/**
 * How a reader appears in logs (docs/operations.md, "Logs"): a keyed hash of their id, the same
 * for every request of theirs on every process sharing the secret, that nobody without the
 * secret can turn back into the id (ids are small numbers: a plain hash would be looked up).
 */
export function readerLogId(userId: number): string {
  return crypto.createHmac('sha256', keyFor('log-reader')).update(String(userId)).digest('base64url').slice(0, 16);
}

function rootSecret(): Buffer {
  root ??= config.secret !== null ? Buffer.from(config.secret, 'utf8') : loadOrCreate(path.join(config.dataDir, FILE_NAME));
  return root;
}

/**
 * Reads the generated secret, or creates it. Two processes starting at once must end up with
 * the same secret: the new value is written to a private temporary file and linked into place,
 * which fails if another process got there first; then everyone reads the file that won.
 */
/**
 * Writes `contents` to `file` (mode 600) unless it exists, atomically: a temporary file linked into
 * place, so two processes starting at once keep the first one's and the loser reads the winner's.
 */
export function writeOnce(file: string, contents: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, contents, { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(tmp, file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

export function loadOrCreate(file: string): Buffer {
  const existing = readSecretFile(file);
  if (existing) return existing;
  writeOnce(file, crypto.randomBytes(GENERATED_BYTES).toString('base64url') + '\n');
  const secret = readSecretFile(file);
  if (!secret) throw new Error(`could not read the generated secret in ${file}`);
  return secret;
}

function readSecretFile(file: string): Buffer | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8').trim();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  if (text.length < 32) throw new Error(`${file} holds no usable secret (under 32 characters); delete it to generate a new one`);
  return Buffer.from(text, 'utf8');
}
