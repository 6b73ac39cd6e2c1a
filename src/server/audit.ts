/**
 * The audit trail (issue 27, docs/staff.md): every staff write and every capability change
 * records who did it, with which capability, to which object, before and after, when, and from
 * where, in the write's own transaction. This function is the only writer; the table refuses
 * UPDATE and DELETE (triggers in migration 2026-11-28T00), and no route or command edits it.
 */
import type { WriteTx } from './db';
import type { Capability } from './staff';

/** Who acts: a staff member through the site, the command line (userId null), or a reader on their own account (capability null). */
export interface AuditActor {
  userId: number | null;
  capability: Capability | null;
  ip: string | null;
  userAgent: string | null;
}

/** The command line as an actor: no account, no address. */
export function commandLineActor(capability: Capability): AuditActor {
  return { userId: null, capability, ip: null, userAgent: null };
}

export interface AuditEvent {
  /** What was done, `object.verb` (`capability.grant`, `short_link.create`). */
  action: string;
  object: { table: string; id: string | number };
  /** Summaries of the object before and after (null when it did not exist or is gone). */
  before?: unknown;
  after?: unknown;
}

export async function writeAudit(tx: WriteTx, actor: AuditActor, event: AuditEvent, now: number): Promise<void> {
  await tx.insertInto('audit_log').values({
    at: now,
    actor_id: actor.userId,
    capability: actor.capability,
    action: event.action,
    object_table: event.object.table,
    object_id: String(event.object.id),
    before_json: event.before === undefined || event.before === null ? null : JSON.stringify(event.before),
    after_json: event.after === undefined || event.after === null ? null : JSON.stringify(event.after),
    ip: actor.ip,
    user_agent: actor.userAgent,
  }).execute();
}
