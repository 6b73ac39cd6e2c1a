/**
 * What the desk does (capability `money`, docs/staff.md "Support desk: readers"): grant keys
 * and Xtra keys with a reason, and sign a reader out everywhere. Each is one write transaction
 * with its audit record: the ledger post (or the sessions' end) and the record commit together.
 */
import { randomBytes } from 'node:crypto';
import { invalidateUserSessions } from '~/features/accounts/index.server';
import { grantKeysIn, type Balances } from '~/features/wallet/index.server';
import { writeAudit, type AuditActor } from '~/server/audit';
import { writeTransaction, type DB } from '~/server/db';
import { grantLedgerKey, parseGrant, type GrantError, type GrantField } from './rules';
import * as repo from './repository.server';

export type GrantAnswer =
  | { outcome: 'granted'; balances: Balances }
  | { outcome: 'already'; balances: Balances }
  | { outcome: 'not-found' }
  | { outcome: 'invalid'; errors: Partial<Record<GrantField, GrantError>> };

/**
 * A grant from the desk's form. The form's one-time request key makes the ledger's idempotency
 * key (`grant:{actor}:{request key}`), so a double submit, a retry or ten at once credit once and
 * write one audit record (`reader.grant`); the others answer `already`.
 */
export async function grantFromForm(db: DB, readerId: number, form: { keys: string; xtra: string; reason: string; request: string }, actor: AuditActor & { userId: number }, now: number): Promise<GrantAnswer> {
  const parsed = parseGrant(form);
  if (!parsed.ok) return { outcome: 'invalid', errors: parsed.errors };
  if (!(await repo.userById(db, readerId))) return { outcome: 'not-found' };
  const g = parsed.value;
  const key = grantLedgerKey(actor.userId, g.requestKey);
  return writeTransaction(db, async (tx) => {
    const { created, balances } = await grantKeysIn(tx, { userId: readerId, keys: g.keys, xtra: g.xtra, reason: g.reason, key, now, kind: 'grant' });
    if (!created) return { outcome: 'already' as const, balances };
    await writeAudit(tx, actor, {
      action: 'reader.grant',
      object: { table: 'users', id: readerId },
      before: null,
      after: { keys: g.keys, xtra: g.xtra, reason: g.reason, ledger_key: key, balances },
    }, now);
    return { outcome: 'granted' as const, balances };
  });
}

/** Ends every session of the reader, with `reader.sign_out_everywhere` (how many ended). */
export async function signOutEverywhere(db: DB, readerId: number, actor: AuditActor, now: number): Promise<{ outcome: 'done'; ended: number } | { outcome: 'not-found' }> {
  if (!(await repo.userById(db, readerId))) return { outcome: 'not-found' };
  return writeTransaction(db, async (tx) => {
    const ended = await invalidateUserSessions(tx, readerId);
    await writeAudit(tx, actor, { action: 'reader.sign_out_everywhere', object: { table: 'users', id: readerId }, before: { sessions: ended }, after: { sessions: 0 } }, now);
    return { outcome: 'done' as const, ended };
  });
}

/** A fresh one-time request key for a grant form (24 URL-safe characters). */
export function grantRequestKey(): string {
  return randomBytes(18).toString('base64url');
}
