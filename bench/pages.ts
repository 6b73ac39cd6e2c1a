/**
 * The page types of both sites that the benches visit (Lighthouse, screenshots): one list, so a
 * new page type reaches both. Chapter paths come from the site's series pages (they differ by
 * language).
 */
import type { Page } from '@playwright/test';
import { DEMO } from '@db/seed/index';

export interface BenchPage {
  name: string;
  path: string;
  /** Loaded with the bench reader's session cookie. */
  signedIn?: boolean;
  /**
   * A reader's own page (/my/): kept out of search engines on purpose (robots.txt and noindex),
   * so Lighthouse's "page is blocked from indexing" SEO audit fails by design and is not a miss.
   */
  private?: boolean;
  /** A state reached by interacting after the load (the reader's immersive view): screenshots only. */
  then?: (page: Page) => Promise<void>;
  /** Not a 2xx document: Lighthouse refuses to audit it ("unable to reliably load the page"). */
  status?: number;
}

export function benchPages(chapters: { manga: string; webtoon: string }): BenchPage[] {
  return [
    { name: 'home', path: '/' },
    { name: 'listing', path: '/comics/' },
    { name: 'series', path: `/comics/${DEMO.readerManga}/` },
    { name: 'reader (paged)', path: chapters.manga },
    { name: 'reader (immersive)', path: chapters.manga, then: async (p) => { await p.keyboard.press('f'); } },
    { name: 'reader (webtoon)', path: chapters.webtoon },
    { name: 'adult gate', path: `/comics/${DEMO.adult}/` },
    { name: 'schedule', path: '/schedule/' },
    { name: 'calendar', path: '/calendario/' },
    { name: 'plans', path: '/plans/' },
    { name: 'login', path: '/auth/login/' },
    { name: 'sign-up', path: '/auth/signup/' },
    { name: '404', path: '/no-such-page/', status: 404 },
    { name: 'series, signed in', path: `/comics/${DEMO.readerManga}/`, signedIn: true },
    { name: 'favorites', path: '/my/favorites/', signedIn: true, private: true },
    { name: 'history', path: '/my/history/', signedIn: true, private: true },
    { name: 'keys', path: '/my/keys/', signedIn: true, private: true },
    { name: 'buy keys', path: '/my/purchase/', signedIn: true, private: true },
    { name: 'purchases', path: '/my/purchases/', signedIn: true, private: true },
    { name: 'subscriptions', path: '/my/subscriptions/', signedIn: true, private: true },
  ];
}
