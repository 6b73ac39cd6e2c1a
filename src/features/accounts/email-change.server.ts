/**
 * Changing the email (docs/accounts.md, "Changing the email"): asked on /my/account/ with the
 * current password; a link goes to the new address and a notice to the old one; the email
 * changes only when the link is used (within a day, once).
 */
import crypto from 'node:crypto';
import type { T } from '~/lib/i18n';
import { confirmEmailPath, NOTIFICATION_SETTINGS_PATH } from '~/lib/paths';
import { isUniqueViolation, writeTransaction, type DB } from '~/server/db';
import { enqueueEmail, renderEmail } from '~/server/outbox';
import { verifyPassword } from './password.server';
import { hashSecret } from './token.server';
import { emailError, normalizeEmail, type FieldError } from './validation';
import * as repo from './repository.server';

/** How long the confirmation link works: a day (a new mailbox may be slow to set up). */
export const EMAIL_CHANGE_TTL_SECONDS = 24 * 60 * 60;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export type EmailChangeRequest = { ok: true } | { ok: false; field: 'email' | 'current'; error: FieldError | 'account.password.wrongCurrent' | 'account.email.same' };

/**
 * Checks the password and the new address, then queues the link to the new address and the
 * notice to the old one in one transaction. An address another account uses gets no link, and
 * the answer is the same (the page cannot tell which addresses have accounts).
 */
export async function requestEmailChange(db: DB, input: { userId: number; newEmail: string; current: string; origin: string; t: T }, now: number): Promise<EmailChangeRequest> {
  const invalid = emailError(input.newEmail);
  if (invalid) return { ok: false, field: 'email', error: invalid };
  const row = await repo.passwordHashOf(db, input.userId);
  if (!row || !(await verifyPassword(row.password_hash, input.current.slice(0, 1024)))) return { ok: false, field: 'current', error: 'account.password.wrongCurrent' };
  const newEmail = normalizeEmail(input.newEmail);
  if (newEmail === row.email) return { ok: false, field: 'email', error: 'account.email.same' };
  const taken = !!(await repo.findUserByEmail(db, newEmail));
  const token = crypto.randomBytes(32).toString('base64url');
  const { t } = input;
  const siteName = t('site.name');
  const settings = { label: t('mail.footer.settings'), url: `${input.origin}${NOTIFICATION_SETTINGS_PATH}` };
  const link = renderEmail({
    siteName, subject: t('mail.emailChange.subject'),
    paragraphs: [t('mail.emailChange.body', { email: newEmail }), t('mail.emailChange.ignore')],
    action: { label: t('mail.emailChange.action'), url: `${input.origin}${confirmEmailPath(token)}` },
    footer: t('mail.footer.account'),
    footerLink: settings,
  });
  const notice = renderEmail({
    siteName, subject: t('mail.emailNotice.subject'),
    paragraphs: [t('mail.emailNotice.body', { email: newEmail }), t('mail.emailNotice.notYou')],
    footer: t('mail.footer.account'),
    footerLink: settings,
  });
  await writeTransaction(db, async (tx) => {
    if (!taken) {
      await repo.insertEmailChange(tx, { token_hash: hashSecret(token), user_id: input.userId, new_email: newEmail, created_at: now, expires_at: now + EMAIL_CHANGE_TTL_SECONDS });
      await enqueueEmail(tx, { to: newEmail, ...link, kind: 'email.confirm' }, now);
    }
    await enqueueEmail(tx, { to: row.email, ...notice, kind: 'email.notice' }, now);
  });
  return { ok: true };
}

/** Whether a confirmation link still works (looking does not use it). */
export async function emailChangeValid(db: DB, token: string, now: number): Promise<boolean> {
  if (!TOKEN.test(token)) return false;
  const row = await repo.emailChange(db, hashSecret(token));
  return !!row && row.used_at === null && Number(row.expires_at) > now;
}

export type EmailConfirmation = { ok: true; email: string } | { ok: false; reason: 'expired' | 'taken' };

/** Uses a confirmation link: the account's email becomes the new one, and every other pending change is dropped. */
export async function confirmEmailChange(db: DB, token: string, now: number): Promise<EmailConfirmation> {
  if (!TOKEN.test(token)) return { ok: false, reason: 'expired' };
  const tokenHash = hashSecret(token);
  try {
    return await writeTransaction(db, async (tx): Promise<EmailConfirmation> => {
      const row = await repo.emailChange(tx, tokenHash);
      if (!row || !(await repo.useEmailChange(tx, tokenHash, now))) return { ok: false, reason: 'expired' };
      if (await repo.findUserByEmail(tx, row.new_email)) return { ok: false, reason: 'taken' };
      await repo.setEmail(tx, Number(row.user_id), row.new_email);
      await repo.deleteEmailChanges(tx, Number(row.user_id));
      // Reset links sent to the old address must not open the account any more.
      await repo.deletePasswordResets(tx, Number(row.user_id));
      return { ok: true, email: row.new_email };
    });
  } catch (e) {
    // Another account took the address between the check and the update: the unique index decides.
    if (isUniqueViolation(e)) return { ok: false, reason: 'taken' };
    throw e;
  }
}
