import { writeTransaction, type DB } from '~/server/db';
import type { UserRow } from '@db/schema';
import { commandLineActor, writeAudit } from '~/server/audit';
import type { Capability } from '~/server/staff';
import { hashPassword } from './password.server';
import { emailError, nameError, normalizeEmail, normalizeName, passwordError } from './validation';
import * as repo from './repository.server';

/** An account: who the signed-in reader is (their keys are the wallet's: see SignedInReader). */
export interface User {
  id: number;
  email: string;
  displayName: string;
  /** The staff capabilities the account holds (none for a reader). */
  capabilities: readonly Capability[];
  /** Holds any capability: what the page data's `is_staff` says. */
  isStaff: boolean;
}

/** What pages and islands know about the signed-in reader: the account and the ledger's balances. */
export interface SignedInReader extends User {
  keys: number;
  freeKeys: number;
  /** When this browser's session began with the password (unix seconds): staff's money and admin actions want it recent. */
  signedInAt: number;
}

export function toUser(r: Pick<UserRow, 'id' | 'email' | 'display_name'>, capabilities: readonly Capability[]): User {
  return {
    id: Number(r.id),
    email: r.email,
    displayName: r.display_name,
    capabilities,
    isStaff: capabilities.length > 0,
  };
}

export class AccountInputError extends Error {
  constructor(public readonly key: string) {
    super(key);
  }
}

export async function findUserByEmail(db: DB, email: string): Promise<UserRow | undefined> {
  return repo.findUserByEmail(db, normalizeEmail(email));
}

/** Account ids by email, for staff naming accounts (a series' creators); unknown emails are absent. Keys are normalized emails. */
export function accountIdsByEmail(db: DB, emails: readonly string[]): Promise<Map<string, number>> {
  return repo.idsByEmail(db, [...new Set(emails.map(normalizeEmail))]);
}

/** The emails of these accounts, for staff forms. */
export function accountEmails(db: DB, ids: readonly number[]): Promise<Map<number, string>> {
  return repo.emailsById(db, ids);
}

/**
 * Creates an account. Throws AccountInputError (a message key) for invalid input;
 * returns null when the email is already registered.
 */
export async function createUser(
  db: DB,
  input: { email: string; displayName: string; password: string; capabilities?: readonly Capability[]; isDemo?: boolean },
  now = Math.floor(Date.now() / 1000),
): Promise<User | null> {
  const invalid = emailError(input.email) ?? nameError(input.displayName) ?? passwordError(input.password);
  if (invalid) throw new AccountInputError(invalid);
  const email = normalizeEmail(input.email);
  if (await findUserByEmail(db, email)) return null;
  const password_hash = await hashPassword(input.password);
  const capabilities = [...new Set(input.capabilities ?? [])];
  try {
    const fields = { email, display_name: normalizeName(input.displayName), password_hash, is_staff: capabilities.length ? 1 as const : 0 as const, is_demo: input.isDemo ? 1 as const : 0 as const, created_at: now, password_changed_at: now };
    // A reader (every sign-up) is one insert; a staff account and its capabilities, with the
    // grant's audit record (the command line's), land together.
    if (!capabilities.length) return toUser(await repo.insertUser(db, fields), []);
    const row = await writeTransaction(db, async (tx) => {
      const user = await repo.insertUser(tx, fields);
      for (const capability of capabilities) await repo.insertCapability(tx, { user_id: user.id, capability, granted_at: now, granted_by: null });
      await writeAudit(tx, commandLineActor('admin'), { action: 'capability.grant', object: { table: 'users', id: user.id }, before: { capabilities: [] }, after: { capabilities } }, now);
      return user;
    });
    return toUser(row, capabilities);
  } catch (e) {
    // Lost a race with another sign-up for the same email: the unique constraint decides.
    if (await findUserByEmail(db, email)) return null;
    throw e;
  }
}

/**
 * Sets a new password and ends every other session of the account (the one in `keepSessionId`
 * stays, so the reader who changed it remains signed in) and every forgotten-password link.
 */
export async function changePassword(db: DB, userId: number, newPassword: string, keepSessionId: string | null, now = Math.floor(Date.now() / 1000)): Promise<void> {
  const invalid = passwordError(newPassword);
  if (invalid) throw new AccountInputError(invalid);
  const password_hash = await hashPassword(newPassword);
  await db.transaction().execute(async (tx) => {
    await repo.setPassword(tx, userId, password_hash, now);
    await repo.endAccessAfterNewPassword(tx, userId, keepSessionId);
  });
}
