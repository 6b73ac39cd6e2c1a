/**
 * Granting and revoking staff capabilities (issue 27, docs/staff.md). Each change keeps
 * users.is_staff equal to "holds any capability" and writes its audit record, in one
 * transaction.
 */
import { writeTransaction, type DB } from '~/server/db';
import { writeAudit, type AuditActor } from '~/server/audit';
import { isCapability, type Capability } from '~/server/staff';
import { normalizeEmail } from './validation';
import * as repo from './repository.server';

export type RoleChange =
  | { outcome: 'no-account' }
  | { outcome: 'self-revoke' }
  | { outcome: 'changed' | 'unchanged'; userId: number; capabilities: Capability[] };

/** A change asked for by a form, before it is checked. */
export interface RoleChangeForm {
  email: string;
  capability: string;
  change: string;
}

export type RoleFormResult = RoleChange | { outcome: 'invalid-email' } | { outcome: 'invalid-capability' };

/**
 * The studio's staff form: checks the fields, then changes the capability as `actor`. The form
 * asks as `admin`, so it is the one way an admin could take away their own `admin` by a slip;
 * changeCapability refuses that for any signed-in actor (the command line, with no account,
 * is the way to repair a studio left without admins).
 */
export async function changeCapabilityFromForm(db: DB, form: RoleChangeForm, actor: AuditActor, now = Math.floor(Date.now() / 1000)): Promise<RoleFormResult> {
  const email = form.email.trim();
  if (!email) return { outcome: 'invalid-email' };
  if (!isCapability(form.capability) || (form.change !== 'grant' && form.change !== 'revoke')) return { outcome: 'invalid-capability' };
  return changeCapability(db, { email, capability: form.capability, change: form.change, actor }, now);
}

/**
 * Gives (`grant`) or takes away (`revoke`) one capability of the account with this email, as
 * `actor`. A change that changes nothing (granting a capability held, revoking one not held)
 * writes no record. A signed-in actor cannot revoke their own `admin` (`self-revoke`).
 */
export async function changeCapability(db: DB, input: { email: string; capability: Capability; change: 'grant' | 'revoke'; actor: AuditActor }, now = Math.floor(Date.now() / 1000)): Promise<RoleChange> {
  const user = await repo.findUserByEmail(db, normalizeEmail(input.email));
  if (!user) return { outcome: 'no-account' };
  const userId = Number(user.id);
  if (input.change === 'revoke' && input.capability === 'admin' && input.actor.userId === userId) return { outcome: 'self-revoke' };
  return writeTransaction(db, async (tx) => {
    const before = await repo.capabilitiesOf(tx, userId);
    const held = before.includes(input.capability);
    if (input.change === 'grant' ? held : !held) return { outcome: 'unchanged', userId, capabilities: before };
    if (input.change === 'grant') await repo.insertCapability(tx, { user_id: userId, capability: input.capability, granted_at: now, granted_by: input.actor.userId });
    else await repo.deleteCapability(tx, userId, input.capability);
    await repo.syncStaffFlag(tx, userId);
    const after = await repo.capabilitiesOf(tx, userId);
    await writeAudit(tx, input.actor, {
      action: `capability.${input.change}`,
      object: { table: 'users', id: userId },
      before: { capabilities: before },
      after: { capabilities: after },
    }, now);
    return { outcome: 'changed', userId, capabilities: after };
  });
}

export interface StaffAccount {
  id: number;
  email: string;
  name: string;
  capabilities: Capability[];
}

/** The accounts holding capabilities (the studio's staff page), by email, each with its list. */
export async function listStaff(db: DB): Promise<StaffAccount[]> {
  const out: StaffAccount[] = [];
  for (const r of await repo.staffAccounts(db)) {
    const last = out[out.length - 1];
    if (last && last.id === r.id) last.capabilities.push(r.capability);
    else out.push({ id: r.id, email: r.email, name: r.display_name, capabilities: [r.capability] });
  }
  return out;
}
