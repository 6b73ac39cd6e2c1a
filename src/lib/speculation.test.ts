import { describe, expect, it } from 'vitest';
import { LOGOUT_PATH, PURCHASE_PATH, CHECKOUT_PATH, FAVORITE_TOGGLE_PATH, THEME_TOGGLE_PATH, UNLOCK_FORM_PATH, STUDIO_PATH } from './paths';
import { NO_SPECULATION_PREFIXES, SPECULATION_RULES } from './speculation';

/** The URL pattern syntax the rules use, for the plain `prefix*` patterns they hold. */
const matches = (pattern: string, path: string) => pattern.endsWith('*') ? path.startsWith(pattern.slice(0, -1)) : path === pattern;

describe('speculation rules', () => {
  it('exclude every address with side effects or money from every rule', () => {
    for (const path of [LOGOUT_PATH, PURCHASE_PATH, CHECKOUT_PATH, FAVORITE_TOGGLE_PATH, THEME_TOGGLE_PATH, UNLOCK_FORM_PATH, STUDIO_PATH, '/api/rent/', '/sapi/app/token', '/my/keys/']) {
      for (const rule of SPECULATION_RULES.prefetch) {
        const excluded = rule.where.and.some((c) => 'not' in c && (c.not.href_matches ?? []).some((p) => matches(p, path)));
        expect(excluded, `${path} in a ${rule.eagerness} rule`).toBe(true);
      }
    }
  });
  it('keep public reading pages eligible', () => {
    for (const path of ['/comics/some-series/', '/read/some-series/1/2/', '/schedule/']) {
      expect(NO_SPECULATION_PREFIXES.some((p) => path.startsWith(p)), path).toBe(false);
    }
  });
  it('use no prerender (it would run page scripts unseen)', () => {
    expect(Object.keys(SPECULATION_RULES)).toEqual(['prefetch']);
  });
});
