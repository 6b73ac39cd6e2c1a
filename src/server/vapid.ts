/**
 * The VAPID key pair web push signs with (docs/operations.md, "Web push"): VAPID_PUBLIC_KEY,
 * VAPID_PRIVATE_KEY and VAPID_SUBJECT when set. A demo without them makes a pair once, on this
 * machine (web-push's generateVAPIDKeys: local key generation, nothing is downloaded), and keeps
 * it in DATA_DIR/vapid.json so subscriptions survive a restart. Production without them has no
 * push: `vapidKeys()` is null and the pages offer no push.
 */
import fs from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import { config } from './config.mjs';
import { writeOnce } from './secrets';

export interface VapidKeys { publicKey: string; privateKey: string; subject: string }

const FILE_NAME = 'vapid.json';
/** What a demo's pushes say to contact: push services need a mailto: or https: subject. */
const DEMO_SUBJECT = 'mailto:no-reply@localhost';

let cached: VapidKeys | null | undefined;

/** The keys, or null when push is off (production without VAPID_* settings). */
export function vapidKeys(): VapidKeys | null {
  if (cached !== undefined) return cached;
  if (config.push.vapid) cached = config.push.vapid;
  else if (config.mode === 'demo') cached = { ...loadOrCreatePair(path.join(config.dataDir, FILE_NAME)), subject: DEMO_SUBJECT };
  else cached = null;
  return cached;
}

/** Two processes starting at once end up with the same pair: a temporary file linked into place, the loser reads the winner's. */
function loadOrCreatePair(file: string): { publicKey: string; privateKey: string } {
  const existing = readPair(file);
  if (existing) return existing;
  writeOnce(file, JSON.stringify(webpush.generateVAPIDKeys()) + '\n');
  const read = readPair(file);
  if (!read) throw new Error(`could not read the generated VAPID keys in ${file}`);
  return read;
}

function readPair(file: string): { publicKey: string; privateKey: string } | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  const parsed = JSON.parse(text) as { publicKey?: unknown; privateKey?: unknown };
  if (typeof parsed.publicKey !== 'string' || typeof parsed.privateKey !== 'string') throw new Error(`${file} does not hold a VAPID key pair: delete it to make a new one`);
  return { publicKey: parsed.publicKey, privateKey: parsed.privateKey };
}
