/**
 * GET /readyz (docs/operations.md, "Health"): whether this process can serve readers, for a load
 * balancer that polls every few seconds. Ready when the database answers and has every
 * migration this build knows; otherwise a short reason and no internals. A check runs at most
 * once a second (callers in that second share it), and gives up after CHECK_TIMEOUT_MS, so
 * neither a polling storm nor a database that hangs reaches further than one query.
 */
import { pendingMigrations } from '@db/migrate';
import { databaseAnswers, getDb } from './db';

export type Readiness = { ready: true } | { ready: false; reason: 'database unavailable' | 'migrations pending' };

const REUSE_MS = 1_000;
const CHECK_TIMEOUT_MS = 2_000;

let last: { at: number; promise: Promise<Readiness> } | null = null;

export function readiness(now = Date.now()): Promise<Readiness> {
  if (last && now - last.at < REUSE_MS) return last.promise;
  const promise = withTimeout(check(), CHECK_TIMEOUT_MS);
  last = { at: now, promise };
  return promise;
}

async function check(): Promise<Readiness> {
  try {
    const db = await getDb();
    if (!(await databaseAnswers(db))) return { ready: false, reason: 'database unavailable' };
    if ((await pendingMigrations(db)).length > 0) return { ready: false, reason: 'migrations pending' };
    return { ready: true };
  } catch {
    return { ready: false, reason: 'database unavailable' };
  }
}

function withTimeout(p: Promise<Readiness>, ms: number): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Readiness>((resolve) => {
    timer = setTimeout(() => resolve({ ready: false, reason: 'database unavailable' }), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}
