/**
 * The reader as a reader uses it: paging a manga right to left and a comic left to right with
 * keys, taps and swipes, scrolling a webtoon, switching modes, and a paid chapter's login prompt.
 * Demo series come from db/seed DEMO; chapter URLs from the series page's /read/ links.
 */
import type { Page } from '@playwright/test';
import { DEMO } from '@db/seed/index';
import { brUrl, expect, message, test } from './fixtures';

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
  await readerReady(page);
  const total = await page.locator('.reader-page img').count();
  expect(total, 'pages of the first chapter').toBeGreaterThan(1);
  return total;
}

/**
 * Waits for the reader's script: it loads once the first page is on screen and marks the reader
 * data-ready; keys, taps and the settings do nothing before (the page's inline script has already
 * laid the reader out, is-js).
 */
async function readerReady(page: Page) {
  await expect(page.locator('#reader.is-js')).toBeVisible();
  await expect(page.locator('#reader')).toHaveAttribute('data-ready', '1');
}

/**
 * Opens a chapter holding the answer to the first page image asked for; `requested` lists the
 * paths of every page image asked for (a narrower copy counts as its page).
 */
async function holdFirstPage(page: Page, href: string): Promise<{ requested: string[]; release: () => void }> {
  const requested: string[] = [];
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/media/p/**', async (route) => {
    requested.push(new URL(route.request().url()).pathname);
    if (requested.length === 1) await held;
    await route.continue();
  });
  await page.goto(href, { waitUntil: 'domcontentloaded' });
  await expect(page.locator('#reader.is-js')).toBeVisible();
  return { requested, release };
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
  test('the first page loads alone; the next three follow once it has arrived', async ({ page }) => {
    const [first] = await chapterLinks(page, DEMO.readerManga);
    // Hold the first page image's answer: nothing else of the chapter may be fetched meanwhile.
    const { requested, release } = await holdFirstPage(page, first!.href);
    const srcs = await page.locator('.reader-page img').evaluateAll((imgs) => imgs.map((i) => new URL((i as HTMLImageElement).src).pathname));
    expect(srcs.length, 'pages of the first chapter').toBeGreaterThan(4);
    await page.waitForTimeout(800);
    expect(requested).toEqual([srcs[0]]);
    release();
    await expect.poll(() => srcs.slice(1, 4).filter((s) => requested.includes(s)).length).toBe(3);
    expect(requested.filter((u) => srcs.slice(4).includes(u))).toEqual([]);
  });

  test('a webtoon strip asks for nothing but its first page until that page is on screen', async ({ page }) => {
    const [first] = await chapterLinks(page, DEMO.readerWebtoon);
    const { requested, release } = await holdFirstPage(page, first!.href);
    const paths = await page.locator('.reader-page img').evaluateAll((imgs) => imgs.map((i) => new URL((i as HTMLImageElement).src).pathname));
    // The strip's next pages are close enough for the browser's own lazy loading: they still wait.
    await page.waitForTimeout(800);
    expect(requested).toEqual([paths[0]]);
    expect(await page.locator('#reader').getAttribute('data-ready')).toBeNull();
    release();
    await expect(page.locator('#reader')).toHaveAttribute('data-ready', '1');
    await expect.poll(() => requested.includes(paths[1]!)).toBe(true);
    // Nothing on screen moved when the rest of the strip appeared below the first page.
    expect(await page.evaluate(() => (performance.getEntriesByType('layout-shift') as unknown as { value: number }[]).reduce((a, e) => a + e.value, 0))).toBeLessThan(0.01);
  });

  test('a phone gets a narrower copy of the page, and the original once it zooms in', async ({ browser }) => {
    const context = await browser.newContext({ hasTouch: true, viewport: { width: 390, height: 844 }, deviceScaleFactor: 1.75 });
    const page = await context.newPage();
    await openFirstChapter(page, DEMO.readerComic);
    const img = page.locator('.reader-page.is-current img');
    // 390 px less the stage's padding, at 1.75 device pixels each: the 720 px copy.
    await expect.poll(() => img.evaluate((i) => (i as HTMLImageElement).currentSrc)).toMatch(/&w=720$/);
    await page.keyboard.press('+');
    await expect(page.locator('#reader')).toHaveClass(/is-zoomed/);
    // The original (`src`, no `&w=`) replaces the copy once it has arrived.
    await expect.poll(() => img.evaluate((i) => { const el = i as HTMLImageElement; return el.currentSrc === el.src && !el.currentSrc.includes('&w='); })).toBe(true);
    await context.close();
  });

  test('pages through a manga right to left', async ({ page }) => {
    const total = await openFirstChapter(page, DEMO.readerManga);
    await expect(page.getByRole('radio', { name: message('en', 'reader.mode.rtl'), includeHidden: true })).toBeChecked();
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
    await expect(page.getByRole('radio', { name: message('en', 'reader.mode.ltr'), includeHidden: true })).toBeChecked();
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
    await expect(page.getByRole('radio', { name: message('en', 'reader.mode.vertical'), includeHidden: true })).toBeChecked();
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
    // The mode switch sits in the reader's settings.
    await page.getByRole('button', { name: message('en', 'reader.settings') }).click();
    await page.getByRole('radio', { name: message('en', 'reader.mode.vertical') }).check();
    await expect(page.locator('#reader')).toHaveAttribute('data-mode', 'vertical');
    await expect(page.locator('.reader-page:visible')).toHaveCount(total);

    await page.getByRole('radio', { name: message('en', 'reader.mode.ltr') }).check();
    await expect(page.locator('.reader-page:visible')).toHaveCount(1);
    await page.keyboard.press('ArrowRight');
    await expect(counter(page)).toHaveText(pageText(2, total));

    await page.reload();
    await expect(page.getByRole('radio', { name: message('en', 'reader.mode.ltr'), includeHidden: true })).toBeChecked();
    await expect(page.locator('#reader')).toHaveAttribute('data-mode', 'ltr');

    // The manga choice does not change how webtoons open.
    await openFirstChapter(page, DEMO.readerWebtoon);
    await expect(page.getByRole('radio', { name: message('en', 'reader.mode.vertical'), includeHidden: true })).toBeChecked();
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
    // Back on this chapter after logging in, with its unlock dialog to reopen (src/lib/intent.ts).
    const next = new URL((await login.getAttribute('href'))!, 'http://x').searchParams.get('next')!;
    expect(next).toMatch(new RegExp(`^${found!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\?intent=unlock%3AEPI-[\\w-]+$`));
    await expect(page.locator('img[src*="/media/p/"]')).toHaveCount(0);
    expect(await page.content()).not.toContain('/media/p/');
  });
});

/** Opens chapter `number` of a series (by its link on the series page). */
async function openChapter(page: Page, slug: string, number: number): Promise<number> {
  const link = (await chapterLinks(page, slug)).find((l) => l.number === number);
  expect(link, `chapter ${number} of ${slug}`).toBeTruthy();
  await page.goto(link!.href);
  await readerReady(page);
  return page.locator('.reader-page img').count();
}

/** Touches the reading area with synthetic touch events: each step lists the fingers down (x, y). */
async function touchSequence(page: Page, steps: Array<{ type: 'touchstart' | 'touchmove' | 'touchend'; points: Array<[number, number]>; changed?: Array<[number, number]> }>) {
  await page.locator('#reader-stage').evaluate((el, steps) => {
    const r = el.getBoundingClientRect();
    const make = (pts: Array<[number, number]>) => pts.map(([fx, fy], i) => new Touch({ identifier: i + 1, target: el, clientX: r.left + r.width * fx, clientY: r.top + r.height * fy }));
    for (const s of steps) {
      const touches = make(s.points);
      el.dispatchEvent(new TouchEvent(s.type, { touches, changedTouches: s.changed ? make(s.changed) : touches, bubbles: true, cancelable: true }));
    }
  }, steps);
}

const doubleTapAt = (page: Page, fx: number, fy: number) =>
  touchSequence(page, [
    { type: 'touchstart', points: [[fx, fy]] },
    { type: 'touchend', points: [], changed: [[fx, fy]] },
    { type: 'touchstart', points: [[fx, fy]] },
    { type: 'touchend', points: [], changed: [[fx, fy]] },
  ]);

const currentImg = (page: Page) => page.locator('.reader-page.is-current img');
const settingsButton = (page: Page) => page.getByRole('button', { name: message('en', 'reader.settings') });

test.describe('reader view', () => {
  test('on a phone the page starts right under the reader bar, with no site header', async ({ browser }) => {
    const context = await browser.newContext({ hasTouch: true, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await openFirstChapter(page, DEMO.readerManga);
    await expect(page.getByRole('search')).toHaveCount(0);
    await expect(page.getByRole('link', { name: message('en', 'header.login') })).toHaveCount(0);
    const home = page.getByRole('link', { name: message('en', 'reader.home') });
    await expect(home).toHaveAttribute('href', '/');
    const bar = (await page.locator('#reader-top').boundingBox())!;
    expect(bar.y).toBe(0);
    const img = (await currentImg(page).boundingBox())!;
    // The stage's 8 px padding is all that sits between the bar and the page.
    expect(img.y - (bar.y + bar.height)).toBeGreaterThanOrEqual(0);
    expect(img.y - (bar.y + bar.height)).toBeLessThanOrEqual(12);
    expect(img.width).toBeGreaterThan(360);
    await context.close();
  });

  test('a tap in the middle leaves only the page on screen, and F brings the bars back', async ({ browser }) => {
    const context = await browser.newContext({ hasTouch: true, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await openFirstChapter(page, DEMO.readerComic);
    await touchSequence(page, [
      { type: 'touchstart', points: [[0.5, 0.5]] },
      { type: 'touchend', points: [], changed: [[0.5, 0.5]] },
    ]);
    await expect(page.locator('#reader-top')).not.toBeInViewport();
    await expect(page.locator('#reader-bottom')).not.toBeInViewport();
    await expect(page.locator('#reader-top')).toBeHidden();
    await expect(page.getByRole('link', { name: message('en', 'reader.home') })).toBeHidden();
    const img = (await currentImg(page).boundingBox())!;
    expect(img.y).toBeLessThanOrEqual(10);
    expect(img.y).toBeGreaterThanOrEqual(0);
    // The keyboard equivalent: F toggles, Escape leaves.
    await page.keyboard.press('f');
    await expect(page.locator('#reader-top')).toBeInViewport();
    await page.keyboard.press('f');
    await expect(page.locator('#reader-top')).toBeHidden();
    await page.keyboard.press('Escape');
    await expect(page.locator('#reader-top')).toBeInViewport();
    await expect(page.locator('#reader-bottom')).toBeInViewport();
    await context.close();
  });

  test('page sizes change the page and are remembered across a reload', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openFirstChapter(page, DEMO.readerManga);
    const whole = (await currentImg(page).boundingBox())!;
    await settingsButton(page).click();
    await expect(page.getByRole('radio', { name: message('en', 'reader.fit.screen') })).toBeChecked();
    await page.getByRole('radio', { name: message('en', 'reader.fit.width') }).check();
    const stage = (await page.locator('#reader-stage').boundingBox())!;
    await expect.poll(async () => (await currentImg(page).boundingBox())!.width).toBeGreaterThan(stage.width - 40);
    expect((await currentImg(page).boundingBox())!.width).toBeGreaterThan(whole.width * 1.5);

    await page.reload();
    await expect(page.locator('#reader')).toHaveAttribute('data-fit', 'width');
    await expect.poll(async () => (await currentImg(page).boundingBox())!.width).toBeGreaterThan(stage.width - 40);
    await settingsButton(page).click();
    await expect(page.getByRole('radio', { name: message('en', 'reader.fit.width') })).toBeChecked();

    await page.getByRole('radio', { name: message('en', 'reader.fit.original') }).check();
    const natural = Number(await currentImg(page).getAttribute('width'));
    await expect.poll(async () => Math.round((await currentImg(page).boundingBox())!.width)).toBe(natural);
    await page.getByRole('radio', { name: message('en', 'reader.fit.height') }).check();
    await expect.poll(async () => Math.round((await currentImg(page).boundingBox())!.height)).toBe(Math.round(stage.height - 16));
  });

  test('a double tap zooms the page, swipes then pan instead of turning, and a pinch zooms too', async ({ browser }) => {
    const context = await browser.newContext({ hasTouch: true, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const total = await openFirstChapter(page, DEMO.readerComic);
    const before = (await currentImg(page).boundingBox())!;
    await doubleTapAt(page, 0.5, 0.3);
    await expect(page.locator('#reader')).toHaveClass(/is-zoomed/);
    await expect.poll(async () => (await currentImg(page).boundingBox())!.width).toBeGreaterThan(before.width * 2);
    // A long drag while zoomed moves the page, never to the next one.
    await touchSequence(page, [
      { type: 'touchstart', points: [[0.8, 0.5]] },
      { type: 'touchmove', points: [[0.2, 0.5]] },
      { type: 'touchend', points: [], changed: [[0.2, 0.5]] },
    ]);
    await page.waitForTimeout(400);
    await expect(counter(page)).toHaveText(pageText(1, total));
    await doubleTapAt(page, 0.5, 0.5);
    await expect(page.locator('#reader')).not.toHaveClass(/is-zoomed/);
    await expect.poll(async () => Math.round((await currentImg(page).boundingBox())!.width)).toBe(Math.round(before.width));

    await touchSequence(page, [
      { type: 'touchstart', points: [[0.4, 0.4], [0.6, 0.6]] },
      { type: 'touchmove', points: [[0.2, 0.2], [0.8, 0.8]] },
      { type: 'touchend', points: [], changed: [[0.2, 0.2], [0.8, 0.8]] },
    ]);
    await expect(page.locator('#reader')).toHaveClass(/is-zoomed/);
    await expect(counter(page)).toHaveText(pageText(1, total));
    await context.close();
  });

  test('on a computer double-click, Ctrl + wheel, + and - zoom, 0 resets, and a drag pans', async ({ page }) => {
    await openFirstChapter(page, DEMO.readerManga);
    const box = (await page.locator('#reader-stage').boundingBox())!;
    await page.mouse.dblclick(box.x + box.width / 2, box.y + box.height / 3);
    await expect(page.locator('#reader')).toHaveClass(/is-zoomed/);
    await expect(counter(page)).toHaveText(/^\D*1\D/);
    await page.keyboard.press('0');
    await expect(page.locator('#reader')).not.toHaveClass(/is-zoomed/);
    await page.keyboard.press('+');
    await expect(page.locator('#reader')).toHaveClass(/is-zoomed/);
    await page.keyboard.press('-');
    await expect(page.locator('#reader')).not.toHaveClass(/is-zoomed/);
    // Ctrl + wheel zooms around the pointer (the browser's own page zoom stays out of it), and a
    // drag then pans the page without turning it.
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 3);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -120);
    await page.keyboard.up('Control');
    await expect(page.locator('#reader')).toHaveClass(/is-zoomed/);
    expect(await page.evaluate(() => window.visualViewport?.scale ?? 1)).toBe(1);
    const img = currentImg(page);
    const before = await img.evaluate((i) => (i as HTMLElement).style.transform);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 60, box.y + box.height / 3 - 40, { steps: 4 });
    await page.mouse.up();
    await expect.poll(() => img.evaluate((i) => (i as HTMLElement).style.transform)).not.toBe(before);
    await expect(counter(page)).toHaveText(/^\D*1\D/);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, 120);
    await page.mouse.wheel(0, 120);
    await page.keyboard.up('Control');
    await expect(page.locator('#reader')).not.toHaveClass(/is-zoomed/);
  });

  test('the scrubber says which page and jumps to the one chosen', async ({ page }) => {
    const total = await openFirstChapter(page, DEMO.readerComic);
    const scrub = page.getByRole('slider', { name: message('en', 'reader.scrubber') });
    await expect(scrub).toHaveAttribute('aria-valuetext', pageText(1, total));
    await scrub.focus();
    await page.keyboard.press('ArrowRight');
    await expect(counter(page)).toHaveText(pageText(2, total));
    await expect(scrub).toHaveAttribute('aria-valuetext', pageText(2, total));
    await scrub.fill(String(total - 1));
    await expect(counter(page)).toHaveText(pageText(total - 1, total));
    expect(await currentAlt(page)).toMatch(new RegExp(`${total - 1}$`));
    // Turning a page moves the scrubber along.
    await page.locator('#reader-stage').focus();
    await page.keyboard.press('Home');
    await expect(scrub).toHaveValue('1');
  });

  test('the end card shows the next chapter with its picture, a favorite button and the way back', async ({ page, reader: _signedIn }) => {
    await openFirstChapter(page, DEMO.readerComic);
    const nextName = await page.locator('#reader-bottom a[rel="next"]').getAttribute('title');
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowRight');
    const end = page.locator('.reader-end');
    await expect(end).toBeVisible();
    const next = end.getByRole('link', { name: new RegExp(message('en', 'reader.nextChapter')) });
    await expect(next).toContainText(nextName!);
    await expect(next.locator('img')).toBeVisible();
    await expect(next).toContainText(message('en', 'chapter.price.free'));
    const favorite = end.getByRole('button', { name: message('en', 'series.favorite') });
    await expect(favorite).toHaveAttribute('aria-pressed', 'false');
    await favorite.click();
    await expect(favorite).toHaveAttribute('aria-pressed', 'true');
    await expect(end.getByRole('link', { name: message('en', 'reader.chapterList') })).toHaveAttribute('href', /^\/comics\//);
  });

  test('the end card before a paid chapter shows its lock and price, on both sites', async ({ page }) => {
    // The reader manga's first five chapters are free; the sixth costs keys.
    await openChapter(page, DEMO.readerManga, 5);
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowLeft');
    const end = page.locator('.reader-end');
    await expect(end).toBeVisible();
    const price = new RegExp(message('en', 'reader.end.price', { price: 7 }).replace('7', '\\d+'));
    await expect(end.getByRole('link', { name: new RegExp(message('en', 'reader.nextChapter')) })).toContainText(price);
    await expect(end.getByRole('link', { name: message('en', 'series.favorite') })).toHaveAttribute('href', /^\/auth\/login\//);

    await page.goto(brUrl(new URL(page.url()).pathname));
    await readerReady(page);
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowLeft');
    const brPrice = new RegExp(message('pt-BR', 'reader.end.price', { price: 7 }).replace('7', '\\d+'));
    await expect(page.locator('.reader-end').getByRole('link', { name: new RegExp(message('pt-BR', 'reader.nextChapter')) })).toContainText(brPrice);
  });
});
