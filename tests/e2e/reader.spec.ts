/**
 * The reader as a reader uses it: paging a manga right to left and a comic left to right with
 * keys, taps and swipes, scrolling a webtoon, switching modes, and a paid chapter's login prompt.
 * Demo series come from db/seed DEMO; chapter URLs from the series page's /read/ links.
 */
import type { Page } from '@playwright/test';
import { DEMO } from '@db/seed/index';
import { expect, message, test } from './fixtures';

interface ChapterLink {
  href: string;
  number: number;
}

/** English chapter links of a series page, ascending by number. */
async function chapterLinks(page: Page, slug: string): Promise<ChapterLink[]> {
  const res = await page.goto(`/comics/${slug}/`);
  expect(res?.status(), `series page of ${slug}`).toBe(200);
  const hrefs = await page.locator('a[href^="/read/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
  const seen = new Map<string, ChapterLink>();
  for (const href of hrefs) {
    const m = /^\/read\/[^/]+\/[^/]+\/(?:chapter|episode)-(\d+)(?:-(\d+))?\/$/.exec(href);
    if (m && !seen.has(href)) seen.set(href, { href, number: Number(`${m[1]}${m[2] ? `.${m[2]}` : ''}`) });
  }
  const links = [...seen.values()].sort((a, b) => a.number - b.number);
  expect(links.length, `English chapter links on /comics/${slug}/`).toBeGreaterThan(1);
  return links;
}

/** Opens the first chapter of a series (free in the demo reader series) and returns its page count. */
async function openFirstChapter(page: Page, slug: string): Promise<number> {
  const [first] = await chapterLinks(page, slug);
  await page.goto(first!.href);
  await expect(page.locator('#reader.is-js')).toBeVisible();
  const total = await page.locator('.reader-page img').count();
  expect(total, 'pages of the first chapter').toBeGreaterThan(1);
  return total;
}

const counter = (page: Page) => page.locator('#reader-counter');
const pageText = (n: number, total: number) => message('en', 'reader.pageCounter', { page: n, total });
const currentAlt = (page: Page) => page.locator('.reader-page.is-current img').getAttribute('alt');

/** Clicks inside the reading area at a fraction of its width, at mid height. */
async function clickZone(page: Page, fraction: number) {
  const box = (await page.locator('#reader-stage').boundingBox())!;
  await page.mouse.click(box.x + box.width * fraction, box.y + box.height / 2);
}

test.describe('reader', () => {
  test('pages through a manga right to left', async ({ page }) => {
    const total = await openFirstChapter(page, DEMO.readerManga);
    await expect(page.getByRole('radio', { name: message('en', 'reader.mode.rtl') })).toBeChecked();
    await expect(counter(page)).toHaveText(pageText(1, total));
    await expect(counter(page)).toHaveAttribute('aria-live', 'polite');
    await expect(page.locator('.reader-page:visible')).toHaveCount(1);

    await page.keyboard.press('ArrowLeft');
    await expect(counter(page)).toHaveText(pageText(2, total));
    expect(await currentAlt(page)).toMatch(/2$/);

    await page.keyboard.press('ArrowRight');
    await expect(counter(page)).toHaveText(pageText(1, total));

    // Left third of the page goes forward in right-to-left reading; the right third goes back.
    await clickZone(page, 0.15);
    await expect(counter(page)).toHaveText(pageText(2, total));
    await clickZone(page, 0.85);
    await expect(counter(page)).toHaveText(pageText(1, total));

    // Nothing before the first page.
    await page.keyboard.press('ArrowRight');
    await expect(counter(page)).toHaveText(pageText(1, total));
  });

  test('pages through a comic left to right and ends with the next-chapter link', async ({ page }) => {
    const total = await openFirstChapter(page, DEMO.readerComic);
    await expect(page.getByRole('radio', { name: message('en', 'reader.mode.ltr') })).toBeChecked();
    await expect(counter(page)).toHaveText(pageText(1, total));

    await page.keyboard.press('ArrowRight');
    await expect(counter(page)).toHaveText(pageText(2, total));
    await page.keyboard.press('ArrowLeft');
    await expect(counter(page)).toHaveText(pageText(1, total));
    await clickZone(page, 0.85);
    await expect(counter(page)).toHaveText(pageText(2, total));
    await page.getByRole('button', { name: message('en', 'reader.nextPage') }).click();
    await expect(counter(page)).toHaveText(pageText(3 > total ? total : 3, total));

    await page.keyboard.press('End');
    await expect(counter(page)).toHaveText(pageText(total, total));
    await page.keyboard.press('ArrowRight');
    const end = page.locator('.reader-end');
    await expect(end).toBeVisible();
    await expect(end.getByRole('link', { name: new RegExp(message('en', 'reader.nextChapter')) })).toBeVisible();
    await expect(page.locator('.reader-page:visible')).toHaveCount(0);
  });

  test('turns pages with a swipe of a fifth of the width', async ({ browser }) => {
    const context = await browser.newContext({ hasTouch: true, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const total = await openFirstChapter(page, DEMO.readerComic);
    const swipe = (dx: number) =>
      page.locator('#reader-stage').evaluate((el, dx) => {
        const r = el.getBoundingClientRect();
        const x = r.left + r.width / 2;
        const y = r.top + r.height / 2;
        const touch = (cx: number) => new Touch({ identifier: 1, target: el, clientX: cx, clientY: y });
        el.dispatchEvent(new TouchEvent('touchstart', { touches: [touch(x)], changedTouches: [touch(x)], bubbles: true }));
        el.dispatchEvent(new TouchEvent('touchend', { touches: [], changedTouches: [touch(x + dx)], bubbles: true }));
      }, dx);
    await swipe(-30); // under 20% of 390 px: nothing
    await expect(counter(page)).toHaveText(pageText(1, total));
    await swipe(-150); // page dragged to the left: next page in left-to-right reading
    await expect(counter(page)).toHaveText(pageText(2, total));
    await swipe(150);
    await expect(counter(page)).toHaveText(pageText(1, total));
    await context.close();
  });

  test('scrolls a webtoon with every page in the strip and the counter following', async ({ page }) => {
    const total = await openFirstChapter(page, DEMO.readerWebtoon);
    await expect(page.getByRole('radio', { name: message('en', 'reader.mode.vertical') })).toBeChecked();
    const imgs = page.locator('.reader-page img');
    await expect(imgs).toHaveCount(total);
    await expect(page.locator('.reader-page:visible')).toHaveCount(total);
    for (let i = 0; i < total; i++) {
      await expect(imgs.nth(i)).toHaveAttribute('width', /^\d+$/);
      await expect(imgs.nth(i)).toHaveAttribute('height', /^\d+$/);
    }
    await expect(counter(page)).toHaveText(pageText(1, total));
    await imgs.nth(total - 1).scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 200);
    await expect(counter(page)).toHaveText(pageText(total, total));
    await imgs.nth(0).scrollIntoViewIfNeeded();
    await expect(counter(page)).toHaveText(pageText(1, total));
    // Arrow keys scroll the page in vertical mode instead of turning pages.
    await page.keyboard.press('ArrowRight');
    await expect(counter(page)).toHaveText(pageText(1, total));
  });

  test('switches modes and remembers the choice per format', async ({ page }) => {
    const total = await openFirstChapter(page, DEMO.readerManga);
    const url = page.url();
    await page.getByRole('radio', { name: message('en', 'reader.mode.vertical') }).check();
    await expect(page.locator('#reader')).toHaveAttribute('data-mode', 'vertical');
    await expect(page.locator('.reader-page:visible')).toHaveCount(total);

    await page.getByRole('radio', { name: message('en', 'reader.mode.ltr') }).check();
    await expect(page.locator('.reader-page:visible')).toHaveCount(1);
    await page.keyboard.press('ArrowRight');
    await expect(counter(page)).toHaveText(pageText(2, total));

    await page.reload();
    await expect(page.getByRole('radio', { name: message('en', 'reader.mode.ltr') })).toBeChecked();
    await expect(page.locator('#reader')).toHaveAttribute('data-mode', 'ltr');

    // The manga choice does not change how webtoons open.
    await openFirstChapter(page, DEMO.readerWebtoon);
    await expect(page.getByRole('radio', { name: message('en', 'reader.mode.vertical') })).toBeChecked();
    await page.goto(url);
    await expect(page.locator('#reader')).toHaveAttribute('data-mode', 'ltr');
  });

  test('shows every page as a vertical strip without JavaScript', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const [first] = await chapterLinks(page, DEMO.readerManga);
    await page.goto(first!.href);
    const n = await page.locator('.reader-page img').count();
    expect(n).toBeGreaterThan(1);
    await expect(page.locator('.reader-page:visible')).toHaveCount(n);
    await context.close();
  });

  test('a paid chapter asks an anonymous reader to log in', async ({ page }) => {
    const links = await chapterLinks(page, DEMO.readerManga);
    const lockedTitle = message('en', 'reader.locked.title');
    let found: string | null = null;
    // The reader manga has 5 free chapters; the next released ones cost keys.
    for (const link of links.filter((l) => l.number > 5).slice(0, 6)) {
      await page.goto(link.href);
      if (await page.getByRole('heading', { name: lockedTitle }).count()) {
        found = link.href;
        break;
      }
    }
    expect(found, 'a locked chapter among the first paid ones').not.toBeNull();
    const login = page.getByRole('link', { name: message('en', 'chapter.loginToRead') });
    await expect(login).toBeVisible();
    await expect(login).toHaveAttribute('href', `/auth/login/?next=${encodeURIComponent(found!)}`);
    await expect(page.locator('img[src*="/media/p/"]')).toHaveCount(0);
    expect(await page.content()).not.toContain('/media/p/');
  });
});
