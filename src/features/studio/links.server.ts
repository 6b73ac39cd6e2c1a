import crypto from 'node:crypto';
import { writeTransaction, type DB } from '~/server/db';
import { writeAudit, type AuditActor } from '~/server/audit';
import { checkSharePath, isShortCode, shortCodeFrom, SHORT_CODE_BYTES, type SharePathError } from './links';
import * as repo from './repository.server';

export type ShareLinkResult = { ok: true; code: string; path: string } | { ok: false; error: SharePathError };

/**
 * A new short link to a chapter of the site (`origin`, `siteId`), made by `actor` (who holds
 * `content`): the link and its audit record land together.
 */
export async function createShareLink(db: DB, input: { siteId: number; origin: string; path: string; actor: AuditActor & { userId: number } }, now: number): Promise<ShareLinkResult> {
  const checked = checkSharePath(input.path, input.origin);
  if (!checked.ok) return checked;
  const code = shortCodeFrom(crypto.randomBytes(SHORT_CODE_BYTES));
  await writeTransaction(db, async (tx) => {
    const id = await repo.insertShortLink(tx, { code, site_id: input.siteId, path: checked.path, created_by: input.actor.userId, created_at: now });
    await writeAudit(tx, input.actor, { action: 'short_link.create', object: { table: 'short_links', id }, before: null, after: { code, site_id: input.siteId, path: checked.path } }, now);
  });
  return { ok: true, code, path: checked.path };
}

/**
 * The path a short link of this site leads to, counting the visit (`count: false` for a HEAD,
 * which changes nothing); null for an unknown or malformed code.
 */
export async function followShareLink(db: DB, siteId: number, code: string, count = true): Promise<string | null> {
  if (!isShortCode(code)) return null;
  return (await (count ? repo.visitShortLink(db, siteId, code) : repo.peekShortLink(db, siteId, code))) ?? null;
}
