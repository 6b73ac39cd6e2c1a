import { describe, expect, it } from 'vitest';
import { emailError, nameError, normalizeEmail, normalizeName, passwordError } from './validation';

describe('account input rules', () => {
  it('stores emails lower-cased and trimmed', () => {
    expect(normalizeEmail('  Ana@Example.COM ')).toBe('ana@example.com');
    expect(emailError('ana@example.com')).toBeNull();
    expect(emailError('ana')).toBe('auth.error.emailInvalid');
    expect(emailError(`${'a'.repeat(250)}@b.cd`)).toBe('auth.error.emailInvalid');
  });
  it('accepts passwords of 8 to 128 characters', () => {
    expect(passwordError('1234567')).toBe('auth.error.passwordLength');
    expect(passwordError('12345678')).toBeNull();
    expect(passwordError('x'.repeat(128))).toBeNull();
    expect(passwordError('x'.repeat(129))).toBe('auth.error.passwordLength');
  });
  it('needs a display name of at most 60 characters', () => {
    expect(normalizeName('  Ana \n  Maria\u0000 ')).toBe('Ana Maria');
    expect(nameError('   ')).toBe('auth.error.nameRequired');
    expect(nameError('x'.repeat(61))).toBe('auth.error.nameTooLong');
  });
});
