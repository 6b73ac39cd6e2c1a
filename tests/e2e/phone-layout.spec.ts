/**
 * Every anonymous page type on both sites, at phone widths (320, 360, 390 px) and at 1280 px:
 * no page is wider than the viewport (mobile browsers zoom out and the page slides sideways),
 * and no page scrolls itself on load (the home page once jumped 1,200 px down to the release
 * schedule because the day strip's scrollIntoView scrolled the page, not only the strip).
 * One browser context per width; the chapter comes from the series page's first /read/ link.
 */
import { DEMO } from '@db/seed/index';
import { brUrl, enUrl, expect, measureLayout, test } from './fixtures';

const WIDTHS = [320, 360, 390, 1280];
const SITES = [
  { name: 'en', url: enUrl },
  { name: 'pt-BR', url: brUrl },
];
/** A series with chapters in both sites' languages. */
const SERIES = `/comics/${DEMO.readerManga}/`;

for (const width of WIDTHS) {
  test(`no sideways scroll and no jump on load at ${width} px, both sites`, async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ viewport: { width, height: width < 1000 ? 760 : 800 }, isMobile: false });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const problems: string[] = [];
    try {
      for (const site of SITES) {
        let chapter: string | null = null;
        const paths = ['/', '/comics/', SERIES, 'chapter', '/schedule/', '/calendario/', '/auth/login/', '/auth/signup/', '/plans/', '/no-such-page-here/'];
        for (const entry of paths) {
          const path = entry === 'chapter' ? chapter : entry;
          expect(path, `a chapter link on ${site.name} ${SERIES}`).toBeTruthy();
          const url = site.url(path!);
          const res = await page.goto(url, { waitUntil: 'load' });
          expect(res?.status(), url).toBe(entry.startsWith('/no-such') ? 404 : 200);
          // Scripts that run on load (schedule strips, carousels) get a moment to misbehave.
          await page.waitForTimeout(300);
          const m = await measureLayout(page);
          if (m.overflow > 1) problems.push(`${url}: ${m.overflow} px wider than the viewport; widest: ${m.widest.join(', ')}`);
          if (m.scrollY > 0 && !new URL(page.url()).hash) problems.push(`${url}: scrolled itself to ${m.scrollY} px on load`);
          if (entry === SERIES) chapter = await page.locator('a[href^="/read/"]').first().getAttribute('href');
        }
      }
    } finally {
      await context.close();
    }
    expect(problems, `pages at ${width} px`).toEqual([]);
    expect(errors, 'uncaught errors in the pages').toEqual([]);
  });
}
