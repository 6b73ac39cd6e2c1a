import { describe, expect, it } from 'vitest';
import { THEME_MAX_AGE, themeCookieValues, themeCookies, themeFromCookies, toggledTheme } from './theme';

describe('theme cookies', () => {
  it('store the dark choice and its inverse in lite, for 1080 days', () => {
    expect(THEME_MAX_AGE).toBe(1080 * 24 * 3600);
    const [dark, lite] = themeCookies('dark', { secure: false, domain: null });
    expect(dark).toMatch(/^dark=1; Path=\/; Max-Age=93312000; SameSite=Lax$/);
    expect(lite).toMatch(/^lite=0;/);
    const [dark2, lite2] = themeCookies('light', { secure: true, domain: null });
    expect(dark2).toMatch(/^dark=0;.*; Secure$/);
    expect(lite2).toMatch(/^lite=1;.*; Secure$/);
    // With COOKIE_DOMAIN both follow the reader to the other site's host.
    for (const c of themeCookies('dark', { secure: true, domain: 'inkpass.example' })) expect(c).toContain('; Domain=inkpass.example;');
  });
});

describe('the theme a request asks for', () => {
  it('reads the dark cookie first, then the inverse lite cookie, else follows the system', () => {
    expect(themeFromCookies('1', undefined)).toBe('dark');
    expect(themeFromCookies('0', '0')).toBe('light');
    expect(themeFromCookies(undefined, '1')).toBe('light');
    expect(themeFromCookies(undefined, '0')).toBe('dark');
    expect(themeFromCookies(undefined, undefined)).toBe('auto');
  });
  it('toggles and writes both cookies', () => {
    expect(toggledTheme('dark')).toBe('light');
    expect(toggledTheme('auto')).toBe('dark');
    expect(toggledTheme('light')).toBe('dark');
    expect(themeCookieValues('light')).toEqual({ dark: '0', lite: '1' });
  });
});
