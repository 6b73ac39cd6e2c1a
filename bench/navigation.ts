/**
 * `npm run bench:navigation` (issue 30, spec section 9): how long two navigations take on a
 * throttled phone connection, before and after what Inkpass does instead of the spec's "last 10
 * page snapshots" (docs/performance.md, "Navigation"):
 * - back from a series page to the listing: a normal load (the back/forward cache switched off
 *   with Chromium's switch) against a restore from the back/forward cache;
 * - a click on the reader's "next chapter": a normal load (the page's speculation rules removed
 *   as they are parsed) against one served from the eager prefetch the rules ask for.
 * Each figure is the median of RUNS (default 5) cold browser contexts, on Slow 4G as Lighthouse's
 * mobile run throttles it (562.5 ms round trip, 1.47 Mbit/s down, 675 kbit/s up) and a 4× slower
 * CPU. Never part of `npm test`; run it with nothing else on the machine.
 */
import { chromium, type Browser, type Page } from '@playwright/test';
import { startDemoSite } from './pages';
import { DEMO } from '@db/seed/index';

const PORT = Number(process.env.NAVIGATION_PORT ?? 4397);
const RUNS = Math.max(1, Number(process.env.NAVIGATION_RUNS ?? 5) || 5);
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const SLOW_4G = { offline: false, latency: 562.5, downloadThroughput: (1474.56 * 1024) / 8, uploadThroughput: (675 * 1024) / 8 };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function throttled(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  if (process.env.NAVIGATION_DEBUG) {
    // Why a prefetch did or did not happen, as Chromium tells DevTools.
    await cdp.send('Preload.enable');
    cdp.on('Preload.prefetchStatusUpdated', (e) => console.log('prefetch', e.prefetchUrl, e.status, e.prefetchStatus ?? ''));
    cdp.on('Preload.ruleSetUpdated', (e) => console.log('rule set', e.ruleSet.errorType ?? 'ok', e.ruleSet.errorMessage ?? ''));
  }
  return page;
}

/** Milliseconds from pressing Back on a series page to the listing shown again, and whether it came from the cache. */
async function backNavigation(browser: Browser, origin: string): Promise<{ ms: number; restored: boolean }> {
  const page = await throttled(browser);
  try {
    await page.goto(`${origin}/comics/`, { waitUntil: 'load' });
    await page.evaluate(() => { addEventListener('pageshow', (e) => { (window as unknown as { __persisted: boolean }).__persisted = e.persisted; }); });
    await page.goto(`${origin}/comics/${DEMO.readerManga}/`, { waitUntil: 'load' });
    const t0 = performance.now();
    // A restore fires no load event for goBack to wait for: wait for the listing's document to be complete.
    await page.goBack({ waitUntil: 'commit' });
    await page.waitForFunction(() => location.pathname === '/comics/' && document.readyState === 'complete');
    const ms = performance.now() - t0;
    const restored = await page.evaluate(() => (window as unknown as { __persisted?: boolean }).__persisted === true);
    return { ms, restored };
  } finally {
    await page.context().close();
  }
}

/** Milliseconds from a click on "next chapter" to the next chapter's load event, and whether it came from a prefetch. */
async function nextChapter(browser: Browser, origin: string, chapterPath: string, speculate: boolean): Promise<{ ms: number; prefetched: boolean }> {
  const page = await throttled(browser);
  try {
    if (!speculate) {
      // Removing a speculation-rules script removes its rules (HTML's speculation rules), so the
      // page behaves as it did before they were added.
      await page.addInitScript(() => {
        new MutationObserver((records) => {
          for (const r of records) for (const n of r.addedNodes) if (n instanceof HTMLScriptElement && n.type === 'speculationrules') n.remove();
        }).observe(document, { childList: true, subtree: true });
      });
    }
    await page.goto(`${origin}${chapterPath}`, { waitUntil: 'load' });
    const next = page.locator('a[rel~="next"]').first();
    const href = await next.getAttribute('href');
    if (!href) throw new Error(`no next-chapter link on ${chapterPath}`);
    // A reader spends a while on a chapter: the eager prefetch has that time.
    await page.waitForTimeout(4000);
    const t0 = performance.now();
    await next.evaluate((a: HTMLAnchorElement) => a.click());
    await page.waitForURL((u) => u.pathname === new URL(href, origin).pathname, { waitUntil: 'load' });
    const ms = performance.now() - t0;
    const prefetched = await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming & { deliveryType?: string })?.deliveryType === 'navigational-prefetch');
    return { ms, prefetched };
  } finally {
    await page.context().close();
  }
}

async function main() {
  const demo = await startDemoSite(PORT, 'navigation');
  const browsers: Browser[] = [];
  try {
    const launch = async (args: string[], ignoreDefaultArgs: string[] = []) => {
      const b = await chromium.launch({ executablePath: CHROME, args: ['--no-sandbox', '--disable-gpu', ...args], ignoreDefaultArgs });
      browsers.push(b);
      return b;
    };
    // Playwright turns the back/forward cache off (--disable-back-forward-cache) unless told not to.
    const withCache = await launch([], ['--disable-back-forward-cache']);
    const withoutCache = await launch([]);
    console.log(`Navigation on Slow 4G with a 4× CPU slowdown, median of ${RUNS} (ms):`);
    for (const site of demo.sites) {
      const before = [], after = [];
      let restored = 0, prefetched = 0;
      for (let i = 0; i < RUNS; i++) {
        before.push((await backNavigation(withoutCache, site.origin)).ms);
        const a = await backNavigation(withCache, site.origin);
        after.push(a.ms);
        if (a.restored) restored++;
      }
      const chapter = site.pages.find((p) => p.name === 'reader (paged)')!.path;
      const plain = [], fast = [];
      for (let i = 0; i < RUNS; i++) {
        plain.push((await nextChapter(withCache, site.origin, chapter, false)).ms);
        const f = await nextChapter(withCache, site.origin, chapter, true);
        fast.push(f.ms);
        if (f.prefetched) prefetched++;
      }
      console.log(`${site.name.padEnd(6)} back to the listing: ${Math.round(median(before))} → ${Math.round(median(after))} (restored from the back/forward cache ${restored}/${RUNS})`);
      console.log(`${site.name.padEnd(6)} next chapter:        ${Math.round(median(plain))} → ${Math.round(median(fast))} (served from the prefetch ${prefetched}/${RUNS})`);
    }
  } finally {
    for (const b of browsers) await b.close();
    await demo.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
