/**
 * Back/forward navigation (issue 30, spec section 9's "last 10 page snapshots", met by the browser):
 * going back to a public page is served from the back/forward cache (the page's own state
 * survives and `pageshow` says `persisted`) on both sites, so nothing on a page (an unload
 * handler, an open connection, `Cache-Control: no-store`) keeps it out.
 */
import { brUrl, enUrl, expect, test } from './fixtures';
import { CHROMIUM_LAUNCH } from '../support/e2e-server';

// Playwright starts Chromium without the back/forward cache (--disable-back-forward-cache);
// these tests start it the way readers' browsers are, and wait for the restore by hand (a
// restore fires no load event for goBack to wait for).
test.use({ launchOptions: { ...CHROMIUM_LAUNCH, ignoreDefaultArgs: ['--disable-back-forward-cache'] } });

test.describe('back/forward cache', () => {
  for (const site of ['en', 'br'] as const) {
    const url = site === 'br' ? brUrl : enUrl;
    test(`${site}: back from a series to the listing comes from the back/forward cache`, async ({ page }) => {
      await page.goto(url('/comics/'));
      // State only this document holds: a reload or a fresh load would not have it.
      await page.evaluate(() => {
        (window as unknown as { __kept: number }).__kept = 42;
        addEventListener('pageshow', (e) => { (window as unknown as { __persisted: boolean }).__persisted = e.persisted; });
      });
      // A series card: /comics/{slug}/ (not the listing's own filter links).
      const card = page.getByRole('main').locator('a[href^="/comics/"]:not([href="/comics/"]):not([href*="?"])').first();
      const href = (await card.getAttribute('href'))!;
      expect(href).toMatch(/^\/comics\/[a-z0-9-]+\/$/);
      await card.click();
      await page.waitForURL((u) => u.pathname === href);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.goBack({ waitUntil: 'commit' });
      await expect.poll(() => new URL(page.url()).pathname).toBe('/comics/');
      const state = await page.evaluate(() => {
        const w = window as unknown as { __kept?: number };
        const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming & { notRestoredReasons?: unknown };
        return { kept: w.__kept, reasons: JSON.stringify(nav?.notRestoredReasons ?? null) };
      });
      expect(state.kept, `not restored from the back/forward cache: ${state.reasons}`).toBe(42);
      // pageshow comes with the restore, maybe a moment after the URL changed back.
      await expect.poll(() => page.evaluate(() => (window as unknown as { __persisted?: boolean }).__persisted)).toBe(true);
      // The navigation progress bar is not left showing on the restored page.
      await expect(page.locator('.nav-progress')).toHaveCount(0);
    });
  }
});
