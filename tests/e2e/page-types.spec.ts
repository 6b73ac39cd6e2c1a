/**
 * Every page type a reader meets beyond the discovery pages (which phone-quality.spec.ts scans),
 * on both sites: the series page, the reader in each of its modes (right-to-left manga,
 * left-to-right comic, vertical webtoon) and its immersive view, a locked chapter with its free
 * preview and its paywall page, the adult gate, login, sign-up,
 * the 404 page and the plans, the browse pages (genres, new, top, updates, a collection), and, signed in, the series page with unlock buttons, favorites,
 * history, every money page (keys, buy keys, checkout, purchases, subscriptions), the account page and its deletion page.
 *  - At 320, 360, 390 and 1280 px: no page wider than the viewport, and none that scrolls itself
 *    on load (phone-layout.spec.ts does the same for the anonymous pages).
 *  - axe-core: no serious or critical violation in the light theme at 390 px; the dark theme
 *    changes colours only, so its scan (the theme following the system's) is the contrast rule,
 *    run at 1280 px so that what only wide screens show is scanned too.
 */
import type { Browser, Page } from '@playwright/test';
import { DEMO } from '@db/seed/index';
import { axeProblems, brUrl, enUrl, expect, measureLayout, signIn, test, type TestReader } from './fixtures';
import { COLLECTIONS } from '@db/seed/collections';

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

/** A chapter a stranger must pay for (its row offers "log in to read"), as the series page links it. */
async function lockedChapterOf(page: Page, site: Site, slug: string): Promise<string> {
  await page.goto(site.url(`/comics/${slug}/`));
  const href = await page.locator('li.chapter-row', { has: page.locator('a.login-to-read') }).locator('a.chapter-main').first().getAttribute('href');
  expect(href, `a paid chapter on ${site.name} /comics/${slug}/`).toBeTruthy();
  return href!;
}

async function anonymousTargets(page: Page, site: Site): Promise<Target[]> {
  const manga = await chapterOf(page, site, DEMO.readerManga);
  // A series with a free preview of its locked chapters (docs/reader.md): the teaser, then the offer.
  const previewed = await lockedChapterOf(page, site, 'the-last-cartographer');
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
    { name: 'locked chapter with its preview', path: previewed },
    { name: 'paywall', path: `${previewed}paywall/` },
    { name: 'adult gate', path: `/comics/${DEMO.adult}/` },
    { name: 'login', path: '/auth/login/' },
    { name: 'sign-up', path: '/auth/signup/' },
    { name: 'plans', path: '/plans/' },
    { name: 'app box', path: '/app/' },
    { name: '404', path: '/no-such-page-here/', status: 404 },
  ];
}

/** The browse pages (docs/home.md, "Browse pages"): genres, new, top, updates and a collection of the site. */
async function browseTargets(site: Site): Promise<Target[]> {
  return [
    { name: 'genres', path: '/genres/' },
    { name: 'new series', path: '/new/' },
    { name: 'top', path: '/top/' },
    { name: 'latest updates', path: '/updates/' },
    { name: 'collection', path: `/collections/${COLLECTIONS[site.name === 'en' ? 1 : 3][0]!.slug}/` },
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
    { name: 'account', path: '/my/account/' },
    { name: 'account deletion', path: '/my/account/delete/' },
  ];
}

/**
 * Loads each target once (signed in when `reader` is given) at 390 px and checks it there for
 * self-scroll on load, overflow and axe (light), then resizes the same page to 320, 360 and
 * 1280 px for overflow and, at 1280, the dark theme's contrast. One load and two scans per page
 * keep the suite inside its time budget; phone-layout.spec.ts loads the discovery pages afresh at
 * every width.
 */
async function check(browser: Browser, site: Site, targetsOf: (page: Page) => Promise<Target[]>, reader?: TestReader): Promise<string[]> {
  const problems: string[] = [];
  const context = await browser.newContext({ viewport: { width: 390, height: 760 }, colorScheme: 'light' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    if (reader) await signIn(page, site.name, reader);
    for (const target of await targetsOf(page)) {
      await page.setViewportSize({ width: 390, height: 760 });
      await page.emulateMedia({ colorScheme: 'light' });
      const url = site.url(target.path);
      const res = await page.goto(url, { waitUntil: 'load' });
      expect(res?.status(), url).toBe(target.status ?? 200);
      if (target.then) await target.then(page);
      // Scripts that run on load get a moment to misbehave.
      await page.waitForTimeout(250);
      const at = (width: number) => `${site.name} ${target.name} at ${width} px`;
      const first = await measureLayout(page);
      if (first.scrollY > 0 && !new URL(page.url()).hash && !target.then) problems.push(`${at(390)}: scrolled itself to ${first.scrollY} px on load`);
      for (const width of [390, 320, 360, 1280]) {
        if (width !== 390) {
          await page.setViewportSize({ width, height: width < 1000 ? 760 : 800 });
          await page.waitForTimeout(100);
        }
        const m = await measureLayout(page);
        if (m.overflow > 1) problems.push(`${at(width)}: ${m.overflow} px wider than the viewport; widest: ${m.widest.join(', ')}`);
        if (width === 390) problems.push(...(await axeProblems(page, at(width), 'light')));
        if (width === 1280) {
          // The dark theme changes colours only: its scan is the contrast rule.
          await page.emulateMedia({ colorScheme: 'dark' });
          problems.push(...(await axeProblems(page, at(width), 'dark')));
        }
      }
    }
  } finally {
    await context.close();
  }
  problems.push(...errors.map((e) => `${site.name}: uncaught ${e}`));
  return problems;
}

for (const site of SITES) {
  test(`reader, adult gate, account and error pages fit and pass axe (${site.name})`, async ({ browser }) => {
    test.setTimeout(300_000);
    expect(await check(browser, site, (page) => anonymousTargets(page, site))).toEqual([]);
  });

  test(`browse pages (genres, new, top, updates, a collection) fit and pass axe (${site.name})`, async ({ browser }) => {
    test.setTimeout(300_000);
    expect(await check(browser, site, () => browseTargets(site))).toEqual([]);
  });

  test(`signed-in pages and every money page fit and pass axe (${site.name})`, async ({ browser, reader }) => {
    test.setTimeout(300_000);
    expect(await check(browser, site, (page) => signedInTargets(page, site), reader)).toEqual([]);
  });
}
