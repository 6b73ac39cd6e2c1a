/** Input rules for account forms, shared by the pages and the CLI. Error values are message keys. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const NAME_MAX = 60;
export const EMAIL_MAX = 254;

export type FieldError =
  | 'auth.error.emailInvalid'
  | 'auth.error.nameRequired'
  | 'auth.error.nameTooLong'
  | 'auth.error.passwordLength';

/** Lower-cased, trimmed; the form stored and compared. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function emailError(email: string): FieldError | null {
  const e = normalizeEmail(email);
  if (e.length > EMAIL_MAX || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(e)) return 'auth.error.emailInvalid';
  return null;
}

/** Display name: trimmed, inner whitespace collapsed, no control characters. */
export function normalizeName(name: string): string {
  return name.replace(/[\u0000-\u001f\u007f]/g, '').replace(/\s+/g, ' ').trim();
}

export function nameError(name: string): FieldError | null {
  const n = normalizeName(name);
  if (!n) return 'auth.error.nameRequired';
  if ([...n].length > NAME_MAX) return 'auth.error.nameTooLong';
  return null;
}

/** 8 to 128 characters (code points), anything allowed. */
export function passwordError(password: string): FieldError | null {
  const n = [...password].length;
  return n < PASSWORD_MIN || n > PASSWORD_MAX ? 'auth.error.passwordLength' : null;
}
