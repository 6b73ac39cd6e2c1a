/**
 * Reading progress as a reader sees it: a new reader reads a free chapter to its last page,
 * then finds the series in the reading history ("Read Again", linking the next chapter) and the chapter
 * row under "Read Again" on the series page.
 */
import { DEMO } from '@db/seed/index';
import { accountButton, expect, message, test } from './fixtures';

test.describe('reading progress', () => {
  test('a chapter read to its last page continues with the next in the history and shows Read Again on its row', async ({ page, reader }) => {
    await page.goto('/');
    await expect(page.locator('.site-header')).toContainText(reader.name);
    await expect(accountButton(page, 'en', reader.name)).toBeVisible();

    await page.goto(`/comics/${DEMO.readerManga}/?order=asc`);
    const first = page.locator('ol.chapter-list a[href^="/read/"]').first();
    const href = (await first.getAttribute('href'))!;
    const seriesName = (await page.getByRole('heading', { level: 1 }).textContent())!.trim();
    await page.goto(href);
    await expect(page.locator('#reader.is-js')).toBeVisible();
    // The reader's script loads once the first page is on screen; it marks the reader data-ready.
    await expect(page.locator('#reader')).toHaveAttribute('data-ready', '1');
    await expect(page.locator('#reader')).toHaveAttribute('data-progress-token', /^p1\./);
    const total = await page.locator('.reader-page img').count();
    const completed = page.waitForResponse((r) => r.url().endsWith('/api/progress/') && (r.request().postData() ?? '').includes('"completed":true'));
    const next = message('en', 'reader.nextPage');
    for (let i = 1; i < total; i++) await page.getByRole('button', { name: next }).click();
    expect((await completed).status()).toBe(200);

    await page.goto('/my/history/');
    await expect(page.getByRole('heading', { level: 1, name: message('en', 'history.title') })).toBeVisible();
    const entry = page.locator('.history-item', { has: page.getByRole('link', { name: seriesName, exact: true }) });
    // Chapter 1 finished: the entry reads Read Again (spec section 4) and goes on with the next chapter, named (the one continue rule).
    const action = entry.getByRole('link', { name: new RegExp(`^${message('en', 'chapter.readAgain')} `) });
    await expect(action).toBeVisible();
    await expect(action).toHaveAttribute('href', /\/chapter-2\/$/);
    await expect(entry.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');

    await page.goto(`/comics/${DEMO.readerManga}/`);
    const row = page.locator('li.chapter-row', { has: page.locator(`a[href="${href}"]`) });
    await expect(row).toContainText(message('en', 'chapter.readAgain'));
  });
});
