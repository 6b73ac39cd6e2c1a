/**
 * The forgotten password (docs/accounts.md, "Forgotten password"): a link with a single-use token
 * valid for an hour, of which only the SHA-256 is stored; the same answer whether or not the
 * email has an account; limits per email and per address; a new password ends every session.
 */
import crypto from 'node:crypto';
import type { T } from '~/lib/i18n';
import { NOTIFICATION_SETTINGS_PATH, resetPasswordPath } from '~/lib/paths';
import { writeTransaction, type DB } from '~/server/db';
import { enqueueEmail, renderEmail } from '~/server/outbox';
import { hit, LIMITS } from '~/server/rate-limit';
import { hashPassword } from './password.server';
import { createSession, type NewSession } from './sessions.server';
import { hashSecret } from './token.server';
import { emailError, normalizeEmail, passwordError, type FieldError } from './validation';
import * as repo from './repository.server';

/** How long a reset link works. */
export const RESET_TTL_SECONDS = 60 * 60;
/** 32 random bytes, base64url: 43 characters. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export type ForgotResult = { ok: true } | { ok: false; reason: 'invalid'; error: FieldError } | { ok: false; reason: 'rateLimited'; retryAfter: number };

/**
 * Asks for a reset link. Counts the address and the email first (unknown emails too), then, only
 * when an account has that email, stores a token's hash and queues the message in one
 * transaction. The caller shows the same page either way.
 */
export async function requestPasswordReset(db: DB, input: { email: string; ip: string; origin: string; t: T }, now: number): Promise<ForgotResult> {
  const invalid = emailError(input.email);
  if (invalid) return { ok: false, reason: 'invalid', error: invalid };
  const email = normalizeEmail(input.email);
  const byIp = await hit(db, `reset:ip:${input.ip}`, LIMITS.resetPerIp, now);
  if (!byIp.allowed) return { ok: false, reason: 'rateLimited', retryAfter: byIp.retryAfter };
  const byEmail = await hit(db, `reset:email:${email}`, LIMITS.resetPerEmail, now);
  if (!byEmail.allowed) return { ok: false, reason: 'rateLimited', retryAfter: byEmail.retryAfter };
  const user = await repo.findUserByEmail(db, email);
  if (!user) return { ok: true };
  const token = crypto.randomBytes(32).toString('base64url');
  const { t } = input;
  const link = `${input.origin}${resetPasswordPath(token)}`;
  const mail = renderEmail({
    siteName: t('site.name'),
    subject: t('mail.reset.subject'),
    paragraphs: [t('mail.reset.greeting', { name: user.display_name }), t('mail.reset.body', { minutes: RESET_TTL_SECONDS / 60 }), t('mail.reset.ignore')],
    action: { label: t('mail.reset.action'), url: link },
    footer: t('mail.footer.account'),
    footerLink: { label: t('mail.footer.settings'), url: `${input.origin}${NOTIFICATION_SETTINGS_PATH}` },
  });
  await writeTransaction(db, async (tx) => {
    await repo.insertPasswordReset(tx, { token_hash: hashSecret(token), user_id: Number(user.id), created_at: now, expires_at: now + RESET_TTL_SECONDS });
    await enqueueEmail(tx, { to: user.email, ...mail, kind: 'password.reset' }, now);
  });
  return { ok: true };
}

/** Whether a reset link still works (the form is shown only then); it is not used up by looking. */
export async function resetTokenValid(db: DB, token: string, now: number): Promise<boolean> {
  if (!TOKEN.test(token)) return false;
  const row = await repo.passwordReset(db, hashSecret(token));
  return !!row && row.used_at === null && Number(row.expires_at) > now;
}

export type ResetResult =
  | { ok: true; session: NewSession }
  | { ok: false; reason: 'expired' }
  | { ok: false; reason: 'invalid'; error: FieldError };

/**
 * Sets the new password through a reset link: uses the token up, ends every session of the
 * account and every other link, and starts a session for this browser.
 */
export async function resetPassword(db: DB, input: { token: string; password: string; userAgent: string | null; country: string | null }, now: number): Promise<ResetResult> {
  if (!TOKEN.test(input.token)) return { ok: false, reason: 'expired' };
  const invalid = passwordError(input.password);
  if (invalid) return { ok: false, reason: 'invalid', error: invalid };
  const tokenHash = hashSecret(input.token);
  const found = await repo.passwordReset(db, tokenHash);
  if (!found || found.used_at !== null || Number(found.expires_at) <= now) return { ok: false, reason: 'expired' };
  const passwordHash = await hashPassword(input.password);
  const userId = await writeTransaction(db, async (tx) => {
    // Used up under the write lock: of two submissions of one link, one wins.
    if (!(await repo.usePasswordReset(tx, tokenHash, now))) return null;
    const row = await repo.passwordReset(tx, tokenHash);
    const id = Number(row!.user_id);
    await repo.setPassword(tx, id, passwordHash, now);
    await repo.endAccessAfterNewPassword(tx, id);
    return id;
  });
  if (userId === null) return { ok: false, reason: 'expired' };
  return { ok: true, session: await createSession(db, userId, now, input.userAgent, input.country) };
}
