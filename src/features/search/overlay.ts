/**
 * Pure rules of the search overlay, shared by the island and its
 * unit tests: which suggestions request a query and language filter make, how the answer tuple
 * is read, and where submitting goes. No DOM, no fetch.
 */
import { defaultParams, listingHref, toggleLanguage, defaultLanguages, type LanguageCode, type Languages, type ListingSite } from '~/features/catalog';
import { normalizeQuery } from '~/lib/search-text';
import { suggestPath } from '~/lib/paths';

export { toggleLanguage, defaultLanguages, type LanguageCode, type Languages };

/** Quiet time after the last keystroke before suggestions are requested. */
export const SUGGEST_DEBOUNCE_MS = 200;

/** The language filter as request parameters: both on is every site, one on is its site. */
export function languageParams(l: Languages): Record<string, string> {
  if (l.en && l.pt) return { show_all_sites: 'true' };
  return { site_id: l.pt ? '3' : '1' };
}

/**
 * The suggestions URL for typed text and a language filter, or null when the text is too short
 * to search (fewer than 2 letters or digits once normalised), in which case the
 * suggestions clear and no request is sent.
 */
export function suggestUrl(text: string, languages: Languages): string | null {
  if (!normalizeQuery(text).terms.length) return null;
  return suggestPath({ cover: 'true', q: text.trim(), ...languageParams(languages) });
}

export interface Suggestion {
  name: string;
  excerpt: string;
  link: string;
  thumbnail: string;
  siteIds: number[];
}

const strings = (v: unknown): string[] | null => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : null);

/**
 * Reads the `[term, names[], excerpts[], links[], thumbnails[], site_ids[]]` tuple. Anything
 * malformed gives null; links that are not http(s) are dropped (they come from our server, but
 * a link the reader may follow is checked where it is used).
 */
export function parseSuggestions(body: unknown): Suggestion[] | null {
  if (!Array.isArray(body) || body.length < 5) return null;
  const [, names, excerpts, links, thumbs, sites] = body as unknown[];
  const n = strings(names);
  const e = strings(excerpts);
  const l = strings(links);
  const t = strings(thumbs);
  if (!n || !e || !l || !t) return null;
  const s = Array.isArray(sites) ? sites : [];
  const out: Suggestion[] = [];
  n.forEach((name, i) => {
    const link = l[i] ?? '';
    if (!/^https?:\/\//i.test(link) && !link.startsWith('/')) return;
    const siteIds = Array.isArray(s[i]) ? (s[i] as unknown[]).filter((x): x is number => typeof x === 'number') : [];
    out.push({ name, excerpt: e[i] ?? '', link, thumbnail: /^https?:\/\/|^\//i.test(t[i] ?? '') ? t[i]! : '', siteIds });
  });
  return out;
}

/** Where submitting the overlay goes: the listing with the query and (when not the site's default) the language filter. */
export function submitHref(text: string, languages: Languages, site: ListingSite): string {
  return listingHref({ ...defaultParams(site, text), languages }, site);
}

/**
 * Fills `{count}` in a pre-translated plural form: the singular at 1 only. Not Intl.PluralRules,
 * whose Portuguese `one` covers 0 too ("0 sugestão"); Brazilians write "0 sugestões".
 */
export function countMessage(forms: { one: string; other: string }, count: number, locale: string): string {
  return (count === 1 ? forms.one : forms.other).replace('{count}', new Intl.NumberFormat(locale).format(count));
}

/** Already-translated strings the island needs (built by Header.astro with the request's `t`). */
export interface OverlayMessages {
  dialogLabel: string;
  inputLabel: string;
  placeholder: string;
  submit: string;
  close: string;
  languagesLabel: string;
  languageEn: string;
  languagePt: string;
  suggestionsLabel: string;
  /** Plural forms with a literal `{count}` placeholder (see countMessage). */
  resultsOne: string;
  resultsOther: string;
  noResults: string;
  error: string;
  hint: string;
  otherSite: string;
}

/** What the header script hands the island when it first loads it. */
export interface OverlayConfig {
  site: ListingSite;
  locale: string;
  messages: OverlayMessages;
}
