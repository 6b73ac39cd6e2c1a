/**
 * The reader's chrome fits the device in hand: keyboard and wheel hints only where there is a
 * mouse, gesture hints only on touch screens, and the chapter links at the bar's two ends when a
 * locked chapter leaves no page controls between them.
 */
import type { Page } from '@playwright/test';
import { devices } from '@playwright/test';
import { DEMO } from '@db/seed/index';
import { expect, message, test } from './fixtures';

/** The reader's chapter links of a series page, in the page's order (oldest first). */
async function chapterHrefs(page: Page, slug: string): Promise<string[]> {
  await page.goto(`/comics/${slug}/`);
  const hrefs = await page.locator('a[href^="/read/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
  return [...new Set(hrefs)];
}

/** Opens the settings panel of a readable chapter, once the reader's script has laid it out. */
async function openSettings(page: Page) {
  await expect(page.locator('#reader')).toHaveAttribute('data-ready', '1');
  await page.getByRole('button', { name: message('en', 'reader.settings') }).click();
  await expect(page.locator('#reader-settings-panel')).toBeVisible();
}

test('a touch phone sees the gesture hint, not the keyboard and wheel ones; a computer the other way round', async ({ browser, page }) => {
  const [first] = await chapterHrefs(page, DEMO.readerComic);
  expect(first).toBeTruthy();
  const immersive = page.locator('#reader-immersive');

  // A computer: mouse and keyboard hints.
  await page.goto(first!);
  await openSettings(page);
  await expect(page.getByText(message('en', 'reader.zoom.hint'))).toBeVisible();
  await expect(page.getByText(message('en', 'reader.zoom.hintTouch'))).toBeHidden();
  // innerText: the text as shown, without what CSS hides.
  expect((await immersive.innerText()).replace(/\s+/g, ' ')).toBe(`${message('en', 'reader.immersive')} (F)`);

  // A touch phone (no hover, coarse pointer).
  const phone = await browser.newContext({ ...devices['Pixel 7'], baseURL: new URL(page.url()).origin });
  try {
    const p = await phone.newPage();
    await p.goto(first!);
    await openSettings(p);
    await expect(p.getByText(message('en', 'reader.zoom.hintTouch'))).toBeVisible();
    await expect(p.getByText(message('en', 'reader.zoom.hint'))).toBeHidden();
    expect(await p.locator('#reader-immersive').innerText()).toBe(message('en', 'reader.immersive'));
    await expect(p.getByText('Ctrl')).toBeHidden();
  } finally {
    await phone.close();
  }
});

test('in a locked chapter at 1280 px, "Next chapter" sits at the right edge and "Previous chapter" at the left', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const hrefs = await chapterHrefs(page, DEMO.readerManga);
  // The manga's first five chapters are free; a later one with a chapter after it is locked for an anonymous reader.
  let found = false;
  for (const href of hrefs.slice(5, 12)) {
    await page.goto(href);
    if ((await page.locator('#reader').getAttribute('data-state')) !== 'locked') continue;
    if (!(await page.locator('.reader-chapter-next').count()) || !(await page.locator('.reader-chapter-prev').count())) continue;
    found = true;
    const bar = (await page.locator('#reader-bottom').boundingBox())!;
    const next = (await page.getByRole('link', { name: message('en', 'reader.nextChapter') }).boundingBox())!;
    const prev = (await page.getByRole('link', { name: message('en', 'reader.previousChapter') }).boundingBox())!;
    expect(bar.x + bar.width - (next.x + next.width), 'space right of "Next chapter"').toBeLessThan(40);
    expect(prev.x - bar.x, 'space left of "Previous chapter"').toBeLessThan(40);
    break;
  }
  expect(found, 'a locked chapter with chapters on both sides').toBe(true);
});
