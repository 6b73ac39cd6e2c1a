import { DEMO } from '@db/seed/index';
import { expect, message, openAccountMenu, test } from './fixtures';

test.describe('favorites', () => {
  test('favorite a series from its page, see it on the favorites page, remove with undo, remove again', async ({ page, reader }) => {
    await page.goto('/my/favorites/');
    await expect(page.locator('.site-header')).toContainText(reader.name);

    const seriesPath = `/comics/${DEMO.readerManga}/`;
    await page.goto(seriesPath);
    const name = (await page.getByRole('heading', { level: 1 }).textContent())!.trim();
    const star = page.getByRole('button', { name: message('en', 'series.favorite'), exact: true });
    const favorited = page.getByRole('button', { name: message('en', 'series.favorited'), exact: true });
    await expect(star).toHaveAttribute('aria-pressed', 'false');
    await star.click();
    await expect(favorited).toHaveAttribute('aria-pressed', 'true');
    await expect(favorited).toBeEnabled();
    // The state is stored: a reload renders it filled.
    await page.reload();
    await expect(favorited).toHaveAttribute('aria-pressed', 'true');

    await openAccountMenu(page, 'en', reader.name);
    await page.getByRole('link', { name: message('en', 'header.favorites'), exact: true }).click();
    await expect(page).toHaveURL(/\/my\/favorites\/$/);
    const entry = page.locator('[data-favorite-entry]').filter({ has: page.getByRole('heading', { name, exact: true }) });
    await expect(entry).toBeVisible();

    // Remove: the entry greys out and offers Undo; Undo brings it back.
    await entry.getByRole('button', { name: message('en', 'favorites.remove') }).click();
    await expect(entry).toHaveClass(/is-removed/);
    await entry.getByRole('button', { name: message('en', 'favorites.undo') }).click();
    await expect(entry).not.toHaveClass(/is-removed/);
    await page.reload();
    await expect(entry).toBeVisible();

    // Remove again: gone after a reload.
    await entry.getByRole('button', { name: message('en', 'favorites.remove') }).click();
    await expect(entry.getByRole('button', { name: message('en', 'favorites.undo') })).toBeVisible();
    await page.reload();
    await expect(entry).toHaveCount(0);
  });

  test('a press before the in-place toggle has loaded waits for it instead of reloading the page', async ({ page, reader: _signedIn }) => {
    // The toggle's module loads when the page is idle: hold it until after the press.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/_astro/library.*.js', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`/comics/${DEMO.readerComic}/`);
    await page.evaluate(() => ((window as unknown as { samePage: boolean }).samePage = true));
    const star = page.getByRole('button', { name: message('en', 'series.favorite'), exact: true });
    const favorited = page.getByRole('button', { name: message('en', 'series.favorited'), exact: true });
    await star.click();
    await page.waitForTimeout(300);
    await expect(star).toHaveAttribute('aria-pressed', 'false');
    release();
    await expect(favorited).toHaveAttribute('aria-pressed', 'true');
    expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true);
    await favorited.click();
    await expect(star).toHaveAttribute('aria-pressed', 'false');
  });

  test('alerts when toggling fails and restores the star', async ({ page, reader: _signedIn }) => {
    await page.goto(`/comics/${DEMO.readerWebtoon}/`);
    const star = page.getByRole('button', { name: message('en', 'series.favorite'), exact: true });
    const before = await star.getAttribute('aria-pressed');
    await page.route('**/api/favorites/**', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"detail":"boom"}' }));
    let shown = '';
    page.once('dialog', (d) => { shown = d.message(); void d.dismiss(); });
    await star.click();
    await expect.poll(() => shown).toBe(message('en', 'favorites.error.toggle'));
    await expect(star).toHaveAttribute('aria-pressed', before!);
    await expect(star).toBeEnabled();
  });
});
