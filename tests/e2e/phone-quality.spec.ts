/**
 * What a reader on a phone (and a desktop) gets from the discovery pages, as measured by tools:
 *  - axe-core on home, listing, schedule and calendario, at 390 px (light and dark), and the
 *    listing at 1280 px (light), both sites: no serious or critical violation (contrast of
 *    tags, chips and the disabled pager once failed; /calendario/ had a list of groups);
 *  - layout shift (PerformanceObserver 'layout-shift', buffered) under 0.05 on the listing, home
 *    and schedule at 390 px, both sites: the listing's filters once folded after load (CLS 0.41);
 *  - the home page at 320 px: no sideways scroll, every carousel pager on one row, the first slide
 *    of each carousel not clipped, the schedule a short preview with a link to /schedule/.
 * The e2e server runs in the machine's zone; the context uses each site's zone so the schedule
 * script has nothing to re-bucket (a reader elsewhere sees their own days, by design).
 */
import type { Browser, Page } from '@playwright/test';
import { axeProblems, brUrl, enUrl, expect, message, test } from './fixtures';

const SITES = [
  { name: 'en', url: enUrl, locale: 'en' as const, zone: 'America/New_York' },
  { name: 'pt-BR', url: brUrl, locale: 'pt-BR' as const, zone: 'America/Sao_Paulo' },
];
type SiteConf = (typeof SITES)[number];

async function open(browser: Browser, site: SiteConf, width: number, colorScheme: 'light' | 'dark' = 'light', reducedMotion: 'reduce' | 'no-preference' = 'no-preference') {
  const context = await browser.newContext({ viewport: { width, height: width < 1000 ? 844 : 900 }, colorScheme, timezoneId: site.zone, reducedMotion });
  return { context, page: await context.newPage() };
}

test.describe('axe: no serious or critical violations', () => {
  for (const site of SITES) {
    test(`home, listing, schedule and calendario at 390 px, light and dark (${site.name})`, async ({ browser }) => {
      // axe over the whole home page takes several seconds a scan on a busy 2-core machine.
      test.setTimeout(300_000);
      const problems: string[] = [];
      const { context, page } = await open(browser, site, 390, 'light');
      try {
        for (const path of ['/', '/comics/', '/schedule/', '/calendario/']) {
          await page.setViewportSize({ width: 390, height: 844 });
          await page.emulateMedia({ colorScheme: 'light' });
          await page.goto(site.url(path), { waitUntil: 'load' });
          // Carousels and the schedule enhance on load; scan what the reader then sees.
          await page.waitForTimeout(400);
          problems.push(...(await axeProblems(page, `${path} at 390 px`, 'light')));
          // The dark theme (following the system's) changes colours only: its scan, on the same
          // page without a reload, is the contrast rule.
          await page.emulateMedia({ colorScheme: 'dark' });
          problems.push(...(await axeProblems(page, `${path} at 390 px`, 'dark')));
          // The wide layout (the header's wide form, the listing's filter sidebar), once: the other
          // pages share that header and have no wide-only widget (page-types.spec.ts scans
          // every page type's contrast at 1280 px).
          if (path === '/comics/') {
            await page.emulateMedia({ colorScheme: 'light' });
            await page.setViewportSize({ width: 1280, height: 900 });
            await page.waitForTimeout(200);
            problems.push(...(await axeProblems(page, `${path} at 1280 px`, 'light')));
          }
        }
      } finally {
        await context.close();
      }
      expect(problems).toEqual([]);
    });
  }
});

/**
 * Cumulative layout shift of a page load, with the shifted elements for the failure message, and
 * how many largest-contentful-paint entries the load reported before the reader scrolled (none
 * when something scrolled on load: Chromium then stops reporting it, and Lighthouse fails with
 * NO_LCP, as the schedule's day strip once did by snapping 4 px).
 */
async function layoutShift(page: Page, url: string): Promise<{ cls: number; sources: string[]; lcpEntries: number }> {
  await page.goto(url, { waitUntil: 'load' });
  // Scripts that run on load and carousels that enhance when near the viewport get their moment.
  await page.waitForTimeout(800);
  const lcpEntries = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let n = 0;
        const po = new PerformanceObserver((list) => (n += list.getEntries().length));
        po.observe({ type: 'largest-contentful-paint', buffered: true });
        setTimeout(() => {
          n += po.takeRecords().length;
          po.disconnect();
          resolve(n);
        }, 50);
      }),
  );
  await page.mouse.wheel(0, 700);
  await page.waitForTimeout(600);
  const shift = await page.evaluate(
    () =>
      new Promise<{ cls: number; sources: string[] }>((resolve) => {
        let cls = 0;
        const sources: string[] = [];
        const po = new PerformanceObserver((list) => {
          for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: { node?: Node | null }[] })[]) {
            if (e.hadRecentInput) continue;
            cls += e.value;
            for (const s of e.sources ?? []) if (s.node instanceof Element) sources.push(`${s.node.tagName.toLowerCase()}.${[...s.node.classList].join('.')} (${e.value.toFixed(3)})`);
          }
        });
        po.observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => {
          po.disconnect();
          resolve({ cls, sources });
        }, 100);
      }),
  );
  return { ...shift, lcpEntries };
}

test.describe('layout shift', () => {
  for (const site of SITES) {
    test(`under 0.05 and a largest contentful paint on the listing, home and schedule at 390 px (${site.name})`, async ({ browser }) => {
      test.setTimeout(90_000);
      const { context, page } = await open(browser, site, 390);
      try {
        for (const path of ['/comics/', '/', '/schedule/', ...(site.name === 'pt-BR' ? ['/calendario/'] : [])]) {
          const { cls, sources, lcpEntries } = await layoutShift(page, site.url(path));
          expect(cls, `${site.name} ${path} moved: ${sources.join(', ')}`).toBeLessThan(0.05);
          expect(lcpEntries, `${site.name} ${path} reported a largest contentful paint`).toBeGreaterThan(0);
        }
      } finally {
        await context.close();
      }
    });
  }

  test('the listing filters are folded in the HTML on a phone unless one is in use, and a sidebar on wide screens', async ({ browser }) => {
    const site = SITES[0]!;
    const phone = await open(browser, site, 390);
    try {
      await phone.page.goto(site.url('/comics/'));
      const filters = phone.page.locator('details[data-filters]');
      await expect(filters).not.toHaveAttribute('open', '');
      await expect(phone.page.getByRole('checkbox', { name: message('en', 'format.MANGA') })).toBeHidden();
      await phone.page.goto(site.url('/comics/?filter=manga'));
      await expect(phone.page.getByRole('checkbox', { name: message('en', 'format.MANGA') })).toBeChecked();
    } finally {
      await phone.context.close();
    }
    const wide = await open(browser, site, 1280);
    try {
      await wide.page.goto(site.url('/comics/'));
      await expect(wide.page.getByRole('checkbox', { name: message('en', 'format.MANGA') })).toBeVisible();
    } finally {
      await wide.context.close();
    }
  });
});

test.describe('home page on a small phone', () => {
  for (const site of SITES) {
    test(`fits 320 px, pagers on one row, first slides whole, schedule as a preview (${site.name})`, async ({ browser }) => {
      test.setTimeout(90_000);
      // Reduced motion: no autoplay, so each carousel still shows its first slide when measured.
      const { context, page } = await open(browser, site, 320, 'light', 'reduce');
      try {
        await page.goto(site.url('/'), { waitUntil: 'load' });
        // Bring every carousel near the viewport so each one enhances.
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        for (let y = 0; y < height; y += 600) {
          await page.evaluate((top) => scrollTo(0, top), y);
          await page.waitForTimeout(120);
        }
        await page.waitForTimeout(400);
        const m = await page.evaluate(() => {
          const root = document.documentElement;
          const pagers = [...document.querySelectorAll<HTMLElement>('.carousel.is-enhanced .carousel-pager:not([hidden])')].map((p) => {
            const tops = new Set([...p.children].filter((c) => (c as HTMLElement).offsetParent !== null).map((c) => Math.round(c.getBoundingClientRect().top)));
            return { id: p.closest('.carousel')!.id || p.closest('.carousel')!.className, rows: tops.size };
          });
          const clipped = [...document.querySelectorAll<HTMLElement>('.carousel.is-enhanced')].flatMap((c) => {
            const track = c.querySelector('.carousel-track')!.getBoundingClientRect();
            const first = c.querySelector('.carousel-slide')!.getBoundingClientRect();
            return first.left < track.left - 0.5 ? [`${c.id || c.className}: first slide ${Math.round(track.left - first.left)} px cut`] : [];
          });
          return { overflow: root.scrollWidth - root.clientWidth, pagers, clipped, height: root.scrollHeight };
        });
        expect(m.overflow, 'sideways scroll').toBeLessThanOrEqual(1);
        expect(m.pagers.length).toBeGreaterThan(0);
        expect(m.pagers.filter((p) => p.rows > 1), 'pagers on more than one row').toEqual([]);
        expect(m.clipped).toEqual([]);
        // The schedule is two week rows and three closed months with a link to the full one, not the three-month list.
        const preview = page.getByRole('region', { name: message(site.locale, 'schedule.heading') });
        await expect(preview.getByRole('link', { name: message(site.locale, 'schedule.preview.all') })).toHaveAttribute('href', '/schedule/');
        await expect(preview.locator('details[open]')).toHaveCount(0);
        expect(m.height, 'home page height').toBeLessThan(9000);
      } finally {
        await context.close();
      }
    });
  }

  test('carousel buttons come after their slides in tab order', async ({ page }) => {
    await page.goto('/');
    const latest = page.getByRole('region', { name: message('en', 'home.latest'), exact: true });
    await expect(latest.getByRole('button', { name: message('en', 'carousel.next') })).toBeVisible();
    const order = await latest.evaluate((root) => {
      const focusable = [...root.querySelectorAll<HTMLElement>('a[href], button')].filter((el) => !el.closest('[inert]') && !el.closest('[hidden]'));
      const next = focusable.findIndex((el) => el.matches('[data-carousel-next]'));
      const lastSlideLink = focusable.map((el, i) => (el.closest('.carousel-slide') ? i : -1)).reduce((a, b) => Math.max(a, b), -1);
      return { next, lastSlideLink };
    });
    expect(order.lastSlideLink).toBeGreaterThanOrEqual(0);
    expect(order.next).toBeGreaterThan(order.lastSlideLink);
  });
});

test.describe('cards', () => {
  test('latest-update cards of a page are equally tall at 390 px', async ({ browser }) => {
    const { context, page } = await open(browser, SITES[1]!, 390);
    try {
      await page.goto(brUrl('/'));
      await page.locator('#home-latest-updates').waitFor();
      const heights = await page.locator('#home-latest-updates .carousel-slide').first().locator('.latest-entry').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().height)));
      expect(heights.length).toBeGreaterThan(1);
      expect(new Set(heights).size, `heights ${heights.join(', ')}`).toBe(1);
    } finally {
      await context.close();
    }
  });

  test('no wrapped line of a listing card starts with a separator', async ({ browser }) => {
    const { context, page } = await open(browser, SITES[0]!, 800);
    try {
      await page.goto(enUrl('/comics/'));
      const leading = await page.locator('.sr-meta, .sc-meta').evaluateAll((metas) => {
        const bad: string[] = [];
        let wrapped = 0;
        for (const meta of metas) {
          const items = [...meta.children] as HTMLElement[];
          const firstTop = items[0]?.getBoundingClientRect().top ?? 0;
          for (const item of items.slice(1)) {
            const before = getComputedStyle(item, '::before').content;
            const lineStart = item.getBoundingClientRect().top > firstTop + 2;
            if (lineStart) wrapped++;
            if (lineStart && before.includes('\u00b7')) bad.push(item.textContent ?? '');
          }
        }
        return { bad, wrapped };
      });
      expect(leading.wrapped, 'some card meta line wraps at 800 px').toBeGreaterThan(0);
      expect(leading.bad).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
