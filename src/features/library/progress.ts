/**
 * Pure rules of reading progress (no I/O): the ordering of updates, the body of a progress
 * report and the history entry state. Unit-tested in progress.test.ts; the SQL upsert in
 * progress.server.ts applies the same ordering in its WHERE clause.
 */
import { readState, type ReadState } from '~/features/catalog';

/** Home continue-reading shelf and history page sizes. */
export const HISTORY_PAGE_SIZE = 25;
export const HOME_SHELF_SIZE = 9;

/** Position of an update: the issue time of its progress token, then its sequence number. */
export interface UpdateOrder {
  issuedAt: number;
  seq: number;
}

/** True when `next` comes strictly after `stored`: a newer token, or the same token and a higher seq. */
export function isNewerUpdate(next: UpdateOrder, stored: UpdateOrder | null | undefined): boolean {
  if (!stored) return true;
  return next.issuedAt > stored.issuedAt || (next.issuedAt === stored.issuedAt && next.seq > stored.seq);
}

/** The stored row after an accepted update: completion is the latest value, completed never goes back to 0. */
export function mergeProgress(
  stored: { completion: number; completed: boolean } | null,
  next: { completion: number; completed: boolean },
): { completion: number; completed: boolean } {
  return { completion: next.completion, completed: next.completed || (stored?.completed ?? false) };
}

export interface ProgressReport {
  e4pid: string;
  completion: number;
  completed: boolean;
  token: string;
  seq: number;
}

const E4PID = /^EPI-[A-Za-z0-9_-]{1,64}$/;
export const MAX_SEQ = 1_000_000_000;

/** Validates a decoded JSON body of POST /api/progress/; null when it is not one. */
export function parseProgressReport(body: unknown): ProgressReport | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const b = body as Record<string, unknown>;
  const { e4pid, completion, completed, progress_token: token, seq } = b;
  if (typeof e4pid !== 'string' || !E4PID.test(e4pid)) return null;
  if (typeof completion !== 'number' || !Number.isFinite(completion) || completion < 0 || completion > 100) return null;
  if (completed !== undefined && typeof completed !== 'boolean' && completed !== 0 && completed !== 1) return null;
  if (typeof token !== 'string' || token.length === 0 || token.length > 300) return null;
  if (typeof seq !== 'number' || !Number.isInteger(seq) || seq < 0 || seq > MAX_SEQ) return null;
  return { e4pid, completion: Math.round(completion), completed: completed === true || completed === 1, token, seq };
}

/** Completion in percent after reaching page `index` (0-based) of `total`: the last page is 100. */
export function completionAt(index: number, total: number): number {
  if (total <= 0) return 0;
  const page = Math.min(Math.max(index, 0), total - 1) + 1;
  return Math.round((page / total) * 100);
}

/** History entry state: read once completed or at 100, else reading. */
export function historyState(p: { completion: number; completed: boolean }): Exclude<ReadState, null> {
  return readState(p) === 'read' ? 'read' : 'reading';
}
