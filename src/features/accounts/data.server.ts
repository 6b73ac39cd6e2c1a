/**
 * A reader's own data (issue 32; docs/privacy.md says exactly what goes and what stays, and why):
 * the export (`GET /my/account/export/`) and the account's deletion (`/my/account/delete/`).
 * Other features hold most of a reader's rows and sit above this one (they use accounts), so
 * the page hands their parts in: each part exports its rows of the reader and, for deletion,
 * erases or anonymises them inside the one transaction this file opens.
 */
import crypto from 'node:crypto';
import { writeAudit } from '~/server/audit';
import { writeTransaction, type DB, type WriteTx } from '~/server/db';
import { dropEmailsTo } from '~/server/outbox';
import { sessionAlive } from './cookie';
import { userAgentSummary } from './device';
import { verifyPassword } from './password.server';
import * as repo from './repository.server';

/** One feature's share of a reader's data. */
export interface ReaderDataPart {
  /** The feature's name (the audit entry counts what each part erased under it). */
  name: string;
  /** The reader's rows, as plain JSON for the export: never a password or token hash, never another reader's rows. */
  exportOf(db: DB, userId: number): Promise<Record<string, unknown>>;
  /** Erases or anonymises the reader's rows in the deletion's transaction; returns counts for the audit entry. */
  eraseFor?(tx: WriteTx, userId: number, now: number): Promise<Record<string, number>>;
}

/** Deleted accounts' emails end with this: reserved (RFC 2606), so no mail can go there and no one can sign up with it. */
export const DELETED_EMAIL_DOMAIN = 'deleted.invalid';

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** The reader's data as one JSON document: the account's own rows, then every part's. */
export async function exportAccountData(db: DB, input: { userId: number; siteId: number; locale: string; now: number; parts: readonly ReaderDataPart[] }): Promise<Record<string, unknown> | null> {
  const profile = await repo.profileForExport(db, input.userId);
  if (!profile) return null;
  const [links, sessions, capabilities, ...parts] = await Promise.all([
    repo.linksForExport(db, input.userId),
    repo.sessionIdsOfUser(db, input.userId),
    repo.capabilitiesOf(db, input.userId),
    ...input.parts.map((p) => p.exportOf(db, input.userId)),
  ]);
  const data: Record<string, unknown> = {
    format: 'inkpass-export',
    version: 1,
    exported_at: new Date(input.now * 1000).toISOString(),
    profile: {
      id: Number(profile.id), email: profile.email, display_name: profile.display_name, created_at: Number(profile.created_at),
      password_changed_at: Number(profile.password_changed_at), staff_capabilities: capabilities,
      // The site and language this export was asked from (an account has no stored locale: each site has one).
      site_id: input.siteId, locale: input.locale,
    },
    // Devices, never the session ids (half of a cookie) nor their hashes.
    sessions: sessions.filter((s) => sessionAlive(s, input.now)).map((s) => ({
      device: userAgentSummary(s.user_agent), user_agent: s.user_agent, country: s.country, created_at: s.created_at, last_seen_at: s.last_seen_at, expires_at: s.expires_at,
    })),
    email_changes: links.emailChanges.map((e) => ({ new_email: e.new_email, created_at: Number(e.created_at), expires_at: Number(e.expires_at), used_at: num(e.used_at) })),
    password_reset_links: links.resets.map((r) => ({ created_at: Number(r.created_at), expires_at: Number(r.expires_at), used_at: num(r.used_at) })),
  };
  for (const part of parts) Object.assign(data, part);
  return data;
}

export type DeletionResult = { ok: true } | { ok: false; field: 'current' | 'confirm'; error: 'account.delete.wrongPassword' | 'account.delete.confirmMissing' };

/**
 * Deletes the reader's account after checking the password (and the confirmation box): in one
 * transaction, every part erases its rows, mail to the address (and to a new address it was
 * moving to) goes, the account row is anonymised (sessions, links and capabilities deleted),
 * and an audit entry records it. The
 * password is verified before the transaction (argon2 is slow) and the hash read again inside
 * it: a password changed in between refuses the deletion.
 */
export async function deleteAccount(db: DB, input: {
  userId: number; current: string; confirmed: boolean; ip: string | null; userAgent: string | null; now: number; parts: readonly ReaderDataPart[];
}): Promise<DeletionResult> {
  const row = await repo.passwordHashOf(db, input.userId);
  if (!row || !(await verifyPassword(row.password_hash, input.current.slice(0, 1024)))) return { ok: false, field: 'current', error: 'account.delete.wrongPassword' };
  if (!input.confirmed) return { ok: false, field: 'confirm', error: 'account.delete.confirmMissing' };
  const placeholder = `deleted-${input.userId}-${crypto.randomBytes(6).toString('hex')}@${DELETED_EMAIL_DOMAIN}`;
  return writeTransaction(db, async (tx) => {
    const again = await repo.credentialsIn(tx, input.userId);
    if (!again || again.password_hash !== row.password_hash || again.email !== row.email) return { ok: false, field: 'current', error: 'account.delete.wrongPassword' } as const;
    const erased: Record<string, Record<string, number>> = {};
    for (const part of input.parts) if (part.eraseFor) erased[part.name] = await part.eraseFor(tx, input.userId, input.now);
    // Mail to the address, and to any address it was moving to (the confirmation link): none goes out afterwards.
    let mail = 0;
    for (const address of new Set([again.email, ...(await repo.newEmailsOf(tx, input.userId))])) mail += await dropEmailsTo(tx, address);
    erased.accounts = { ...(await repo.anonymiseAccount(tx, input.userId, placeholder, input.now)), emails: mail };
    // The reader acts on their own account: no capability. The address is not written (it is gone from the row).
    await writeAudit(tx, { userId: input.userId, capability: null, ip: input.ip, userAgent: input.userAgent }, {
      action: 'account.delete', object: { table: 'users', id: input.userId }, before: { state: 'active' }, after: { state: 'deleted', erased },
    }, input.now);
    return { ok: true } as const;
  });
}
