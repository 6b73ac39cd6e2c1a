/**
 * The theme cookies, in one place for the middleware (reading), the no-JavaScript form endpoint
 * and the header script (writing). `dark` holds the choice (1 or 0) and `lite` holds its
 * inverse, both kept 1080 days (the product's rule); without either, the page follows the
 * system setting. Not HttpOnly: the header script writes them. Browser-safe. Their attributes
 * (Domain included) are the site's cookie policy, src/lib/cookies.ts.
 */
import { cookieOptions, serializeCookie, type CookieOptions, type CookieScope } from './cookies';

export type Theme = 'dark' | 'light';
export type ThemeSetting = Theme | 'auto';

export const THEME_COOKIE_DARK = 'dark';
export const THEME_COOKIE_LITE = 'lite';
export const THEME_MAX_AGE = 1080 * 24 * 3600;

/** The theme a request asks for, from its two cookie values (the dark cookie wins). */
export function themeFromCookies(dark: string | undefined, lite: string | undefined): ThemeSetting {
  if (dark != null) return dark === '1' ? 'dark' : 'light';
  if (lite != null) return lite === '1' ? 'light' : 'dark';
  return 'auto';
}

/** The two cookies' values for a theme. */
export function themeCookieValues(theme: Theme): Record<typeof THEME_COOKIE_DARK | typeof THEME_COOKIE_LITE, string> {
  return { [THEME_COOKIE_DARK]: theme === 'dark' ? '1' : '0', [THEME_COOKIE_LITE]: theme === 'dark' ? '0' : '1' };
}

/** The attributes both theme cookies take in a scope. */
export function themeCookieOptions(scope: CookieScope): CookieOptions {
  return cookieOptions(scope, { maxAge: THEME_MAX_AGE });
}

/** The same as Set-Cookie / document.cookie strings. */
export function themeCookies(theme: Theme, scope: CookieScope): string[] {
  const opts = themeCookieOptions(scope);
  return Object.entries(themeCookieValues(theme)).map(([name, value]) => serializeCookie(name, value, opts));
}

/** The other theme. */
export function toggledTheme(current: ThemeSetting | string): Theme {
  return current === 'dark' ? 'light' : 'dark';
}
