import { describe, expect, it } from 'vitest';
import { cookieOptions, cookieScope, hostInDomain, hostName, serializeCookie } from './cookies';

describe('the cookie policy', () => {
  it('shares cookies with the configured domain only on hosts inside it', () => {
    expect(cookieScope('inkpass.example', true, 'inkpass.example')).toEqual({ secure: true, domain: 'inkpass.example' });
    expect(cookieScope('br.inkpass.example:8443', true, 'inkpass.example')).toEqual({ secure: true, domain: 'inkpass.example' });
    // A name outside the domain (an address, a look-alike) keeps host-only cookies.
    expect(cookieScope('127.0.0.1:4321', false, 'inkpass.example')).toEqual({ secure: false, domain: null });
    expect(cookieScope('evilinkpass.example', false, 'inkpass.example').domain).toBeNull();
    expect(cookieScope('localhost:4321', false, null)).toEqual({ secure: false, domain: null });
  });

  it('reads host names without ports', () => {
    expect(hostName('BR.Localhost:4321')).toBe('br.localhost');
    expect(hostName('[::1]:80')).toBe('[::1]');
    expect(hostInDomain('br.inkpass.example', 'inkpass.example')).toBe(true);
    expect(hostInDomain('inkpass.example.evil', 'inkpass.example')).toBe(false);
  });

  it('writes Path, SameSite=Lax, Secure over https, HttpOnly when asked and Domain when shared', () => {
    const shared = cookieOptions({ secure: true, domain: 'inkpass.example' }, { maxAge: 60.7, httpOnly: true });
    expect(shared).toEqual({ path: '/', sameSite: 'lax', secure: true, httpOnly: true, maxAge: 60, domain: 'inkpass.example' });
    expect(serializeCookie('s', 'v', shared)).toBe('s=v; Path=/; Domain=inkpass.example; Max-Age=60; HttpOnly; SameSite=Lax; Secure');
    const local = cookieOptions({ secure: false, domain: null }, { maxAge: -5 });
    expect(local).not.toHaveProperty('domain');
    expect(serializeCookie('dark', '1', local)).toBe('dark=1; Path=/; Max-Age=0; SameSite=Lax');
  });
});
