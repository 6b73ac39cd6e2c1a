/**
 * The discovery pages (home, listing, schedule, calendario, and the browse pages: genres, new,
 * top, updates and a collection) on both sites, each loaded afresh at
 * phone widths (320, 360, 390 px) and at 1280 px, since their scripts lay out strips and
 * carousels on load: no page is wider than the viewport (mobile browsers zoom out and the page
 * slides sideways), and no page scrolls itself on load (the home page once jumped 1,200 px down
 * to the release schedule because the day strip's scrollIntoView scrolled the page, not only the
 * strip). The other page types are checked at the same widths by page-types.spec.ts.
 */
import { brUrl, enUrl, expect, measureLayout, test } from './fixtures';
import { COLLECTIONS } from '@db/seed/collections';

const WIDTHS = [320, 360, 390, 1280];
const SITES = [
  { name: 'en', url: enUrl, collection: COLLECTIONS[1][0]!.slug },
  { name: 'pt-BR', url: brUrl, collection: COLLECTIONS[3][0]!.slug },
];
for (const width of WIDTHS) {
  test(`no sideways scroll and no jump on load at ${width} px, both sites`, async ({ browser }) => {
    test.setTimeout(60_000);
    const context = await browser.newContext({ viewport: { width, height: width < 1000 ? 760 : 800 }, isMobile: false });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const problems: string[] = [];
    try {
      for (const site of SITES) {
        for (const path of ['/', '/comics/', '/schedule/', '/calendario/', '/genres/', '/new/', '/top/', '/updates/', '/updates/?page=2', `/collections/${site.collection}/`]) {
          const url = site.url(path);
          const res = await page.goto(url, { waitUntil: 'load' });
          expect(res?.status(), url).toBe(200);
          // Scripts that run on load (schedule strips, carousels) get a moment to misbehave.
          await page.waitForTimeout(300);
          const m = await measureLayout(page);
          if (m.overflow > 1) problems.push(`${url}: ${m.overflow} px wider than the viewport; widest: ${m.widest.join(', ')}`);
          if (m.scrollY > 0 && !new URL(page.url()).hash) problems.push(`${url}: scrolled itself to ${m.scrollY} px on load`);
        }
      }
    } finally {
      await context.close();
    }
    expect(problems, `pages at ${width} px`).toEqual([]);
    expect(errors, 'uncaught errors in the pages').toEqual([]);
  });
}
