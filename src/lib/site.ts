/** Two sites, one app: the host decides which (docs/decisions.md, "Hosts"). */
export type SiteId = 1 | 3;
export type Locale = 'en' | 'pt-BR';

export interface Site {
  id: SiteId;
  locale: Locale;
  /** Content language code used by series and chapters on this site. */
  language: 'en' | 'pt-br';
  /** Time zone used for server-rendered calendar days. */
  timeZone: string;
  /**
   * Which zone release times are shown in (docs/decisions.md, "One zone for release times"):
   * `site`, the site's own zone on every page and in every browser (the Portuguese site: Brasília
   * time, the reference Brazilian schedules are given in); `reader`, the browser's zone once the
   * page's script runs, the site's without it (the English site, whose readers are everywhere).
   */
  scheduleZone: 'site' | 'reader';
  currency: 'USD' | 'BRL';
  /** Open Graph locale. */
  ogLocale: string;
}

export const SITES: Record<SiteId, Site> = {
  1: { id: 1, locale: 'en', language: 'en', timeZone: 'UTC', scheduleZone: 'reader', currency: 'USD', ogLocale: 'en_US' },
  3: { id: 3, locale: 'pt-BR', language: 'pt-br', timeZone: 'America/Sao_Paulo', scheduleZone: 'site', currency: 'BRL', ogLocale: 'pt_BR' },
};

/** `br.` hosts are the Portuguese site; everything else is the English one. */
export function siteFromHost(host: string | null | undefined): Site {
  const h = (host ?? '').toLowerCase().trim();
  return h.startsWith('br.') ? SITES[3] : SITES[1];
}

/** The same host for the other site: adds or removes the `br.` prefix, keeping the port. */
export function otherHost(host: string): string {
  const h = host.toLowerCase();
  return h.startsWith('br.') ? host.slice(3) : `br.${host}`;
}

/** Host of a given site, derived from the current host. */
export function hostForSite(currentHost: string, site: SiteId): string {
  const isBr = currentHost.toLowerCase().startsWith('br.');
  if ((site === 3) === isBr) return currentHost;
  return otherHost(currentHost);
}

/** Site that shows a content language (0 for languages neither site is for). */
export function siteIdForLanguage(language: string): 0 | SiteId {
  if (language === 'en') return 1;
  if (language === 'pt-br') return 3;
  return 0;
}

/** The content language a locale's site shows ('en', 'pt-br'). */
export function contentLanguage(locale: Locale): Site['language'] {
  return locale === 'pt-BR' ? 'pt-br' : 'en';
}
