/**
 * Every page type a reader meets beyond the discovery pages (which phone-quality.spec.ts scans),
 * on both sites: the series page, the reader in each of its modes (right-to-left manga,
 * left-to-right comic, vertical webtoon) and its immersive view, the adult gate, login, sign-up,
 * the 404 page and the plans, and, signed in, the series page with unlock buttons, favorites,
 * history and every money page (keys, buy keys, checkout, purchases, subscriptions).
 *  - At 320, 360, 390 and 1280 px: no page wider than the viewport, and none that scrolls itself
 *    on load (phone-layout.spec.ts does the same for the anonymous pages).
 *  - axe-core at 390 and 1280 px: no serious or critical violation in the light theme; the dark
 *    theme changes colours only, so its scan (at 390 px) is the contrast rule.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from '@playwright/test';
import { DEMO } from '@db/seed/index';
import { brUrl, enUrl, expect, measureLayout, signIn, test, type TestReader } from './fixtures';

const SITES = [
  { name: 'en' as const, url: enUrl },
  { name: 'br' as const, url: brUrl },
];
type Site = (typeof SITES)[number];

/** A page to check: a path, or a function finding it from the page currently open. */
interface Target {
  name: string;
  path: string;
  /** After loading: put the page in the state to check (the reader's immersive view). */
  then?: (page: Page) => Promise<void>;
  status?: number;
}

/** The first chapter link on a series page, as a reader would follow it. */
async function chapterOf(page: Page, site: Site, slug: string): Promise<string> {
  await page.goto(site.url(`/comics/${slug}/`));
  const href = await page.locator('a[href^="/read/"]').first().getAttribute('href');
  expect(href, `a chapter link on ${site.name} /comics/${slug}/`).toBeTruthy();
  return href!;
}

async function anonymousTargets(page: Page, site: Site): Promise<Target[]> {
  const manga = await chapterOf(page, site, DEMO.readerManga);
  return [
    { name: 'series', path: `/comics/${DEMO.readerManga}/` },
    { name: 'reader, manga (right to left)', path: manga },
    { name: 'reader, comic (left to right)', path: await chapterOf(page, site, DEMO.readerComic) },
    { name: 'reader, webtoon (vertical)', path: await chapterOf(page, site, DEMO.readerWebtoon) },
    {
      name: 'reader, immersive',
      path: manga,
      then: async (p) => {
        await p.keyboard.press('f');
        await expect(p.locator('.reader-page').first()).toBeVisible();
      },
    },
    { name: 'adult gate', path: `/comics/${DEMO.adult}/` },
    { name: 'login', path: '/auth/login/' },
    { name: 'sign-up', path: '/auth/signup/' },
    { name: 'plans', path: '/plans/' },
    { name: '404', path: '/no-such-page-here/', status: 404 },
  ];
}

async function signedInTargets(page: Page, site: Site): Promise<Target[]> {
  await page.goto(site.url('/my/purchase/'));
  const checkout = await page.locator('a.shop-buy').first().getAttribute('href');
  expect(checkout, `a pack to buy on ${site.name}`).toBeTruthy();
  return [
    { name: 'series, signed in', path: `/comics/${DEMO.readerManga}/` },
    { name: 'favorites', path: '/my/favorites/' },
    { name: 'history', path: '/my/history/' },
    { name: 'keys', path: '/my/keys/' },
    { name: 'buy keys', path: '/my/purchase/' },
    { name: 'checkout', path: checkout! },
    { name: 'purchases', path: '/my/purchases/' },
    { name: 'subscriptions', path: '/my/subscriptions/' },
  ];
}

async function axeProblems(page: Page, label: string, scheme: 'light' | 'dark'): Promise<string[]> {
  let builder = new AxeBuilder({ page });
  if (scheme === 'dark') builder = builder.withRules(['color-contrast']);
  const result = await builder.analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${label} (${scheme}): ${v.id} (${v.impact}) at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

/**
 * Loads each target at each width in one context (signed in when `reader` is given) and collects
 * overflow, self-scroll and, at 390 and 1280 px, axe problems.
 */
async function check(browser: Browser, site: Site, widths: number[], targetsOf: (page: Page) => Promise<Target[]>, reader?: TestReader): Promise<string[]> {
  const problems: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    for (const width of widths) {
      // The dark theme changes colours only: one width is enough for its contrast scan.
      if (scheme === 'dark' && width !== 390) continue;
      const context = await browser.newContext({ viewport: { width, height: width < 1000 ? 760 : 800 }, colorScheme: scheme });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      try {
        if (reader) await signIn(page, site.name, reader);
        for (const target of await targetsOf(page)) {
          const url = site.url(target.path);
          const res = await page.goto(url, { waitUntil: 'load' });
          expect(res?.status(), url).toBe(target.status ?? 200);
          if (target.then) await target.then(page);
          // Scripts that run on load get a moment to misbehave.
          await page.waitForTimeout(250);
          const label = `${site.name} ${target.name} at ${width} px`;
          if (scheme === 'light') {
            const m = await measureLayout(page);
            if (m.overflow > 1) problems.push(`${label}: ${m.overflow} px wider than the viewport; widest: ${m.widest.join(', ')}`);
            if (m.scrollY > 0 && !new URL(page.url()).hash && !target.then) problems.push(`${label}: scrolled itself to ${m.scrollY} px on load`);
          }
          if (width === 390 || width === 1280) problems.push(...(await axeProblems(page, label, scheme)));
        }
      } finally {
        await context.close();
      }
      problems.push(...errors.map((e) => `${site.name} at ${width} px (${scheme}): uncaught ${e}`));
    }
  }
  return problems;
}

for (const site of SITES) {
  test(`reader, adult gate, account and error pages fit and pass axe (${site.name})`, async ({ browser }) => {
    test.setTimeout(420_000);
    expect(await check(browser, site, [320, 360, 390, 1280], (page) => anonymousTargets(page, site))).toEqual([]);
  });

  test(`signed-in pages and every money page fit and pass axe (${site.name})`, async ({ browser, reader }) => {
    test.setTimeout(420_000);
    expect(await check(browser, site, [320, 360, 390, 1280], (page) => signedInTargets(page, site), reader)).toEqual([]);
  });
}
