/**
 * Speculation rules for every page (issue 30, spec section 9's page snapshots, met by the browser):
 * the reader's next chapter (rel=next) is fetched as soon as the page is idle, any other same-origin
 * link when the reader hovers or starts pressing it (moderate). Prefetch, not prerender: a
 * prerendered page runs its scripts (reading progress, app-token renewal, analytics) before anyone
 * sees it. Never for addresses with side effects or private money pages: forms post elsewhere, and
 * these prefixes are excluded outright.
 */
import { AUTH_PREFIX, MY_PREFIX, STUDIO_PATH, UNLOCK_FORM_PATH } from './paths';

export const NO_SPECULATION_PREFIXES = ['/api/', '/sapi/', MY_PREFIX, AUTH_PREFIX, STUDIO_PATH, '/prefs/', UNLOCK_FORM_PATH, '/l/', '/_/', '/webhooks/', '/media/'] as const;

const safe = [
  { not: { href_matches: NO_SPECULATION_PREFIXES.map((p) => `${p}*`) } },
  { not: { selector_matches: '[data-no-prefetch], [rel~=nofollow], [download], [target=_blank]' } },
];

export const SPECULATION_RULES = {
  prefetch: [
    { where: { and: [{ selector_matches: 'a[rel~=next]' }, { href_matches: '/*' }, ...safe] }, eagerness: 'eager' },
    { where: { and: [{ href_matches: '/*' }, ...safe] }, eagerness: 'moderate' },
  ],
};

/** The rules as the body of a <script type="speculationrules">. */
export const SPECULATION_RULES_JSON = JSON.stringify(SPECULATION_RULES).replace(/</g, '\\u003c');
