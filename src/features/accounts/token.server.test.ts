import { describe, expect, it } from 'vitest';
import { generateSessionToken, hashSecret, parseSessionToken, secretMatches } from './token.server';

describe('session tokens', () => {
  it('are id.secret with at least 128 bits of secret entropy, and differ every time', () => {
    const a = generateSessionToken();
    const b = generateSessionToken();
    expect(a.token).toBe(`${a.id}.${a.secret}`);
    expect(Buffer.from(a.secret, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    expect(Buffer.from(a.id, 'base64url').length * 8).toBeGreaterThanOrEqual(120);
    expect(a.token).not.toBe(b.token);
    expect(a.id).not.toBe(b.id);
  });

  it('store only the SHA-256 of the secret, never the secret or the token', () => {
    const t = generateSessionToken();
    expect(t.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(t.secretHash).toBe(hashSecret(t.secret));
    expect(t.secretHash).not.toContain(t.secret);
  });

  it('verify the right secret and refuse a wrong one', () => {
    const t = generateSessionToken();
    expect(secretMatches(t.secret, t.secretHash)).toBe(true);
    const other = generateSessionToken();
    expect(secretMatches(other.secret, t.secretHash)).toBe(false);
    expect(secretMatches(t.secret, 'not-hex')).toBe(false);
  });

  it('parse only well-formed cookie values', () => {
    const t = generateSessionToken();
    expect(parseSessionToken(t.token)).toEqual({ id: t.id, secret: t.secret });
    for (const bad of [undefined, '', 'abc', `${t.id}`, `${t.id}.`, `.${t.secret}`, `${t.id}.${t.secret}.x`, `${t.id}.${t.secret}x`, `${t.id}.${t.secret.slice(0, -1)}=`, 'x'.repeat(500)]) {
      expect(parseSessionToken(bad), String(bad)).toBeNull();
    }
  });
});
