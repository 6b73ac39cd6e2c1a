/**
 * The age gate of an adult series as a visitor meets it (docs/adult.md): confirm once, and the
 * series page and the reader open directly afterwards; the same without JavaScript (a plain form).
 */
import { DEMO } from '@db/seed/index';
import { brUrl, enUrl, expect, message, test } from './fixtures';

test.describe('age gate', () => {
  test('confirming once opens the series page and then the reader directly', async ({ page }) => {
    await page.goto(`/comics/${DEMO.adult}/?order=asc`);
    await expect(page.getByRole('heading', { level: 2, name: message('en', 'adult.gate.title') })).toBeVisible();
    await expect(page.locator('ol.chapter-list')).toHaveCount(0);
    await page.getByRole('button', { name: message('en', 'adult.gate.confirm') }).click();
    await expect(page).toHaveURL(new RegExp(`/comics/${DEMO.adult}/\\?order=asc$`));
    const first = page.locator('ol.chapter-list a[href^="/read/"]').first();
    await expect(first).toBeVisible();
    const href = (await first.getAttribute('href'))!;
    await page.goto(href);
    await expect(page.locator('[data-age-gate]')).toHaveCount(0);
    await expect(page.locator('.reader-page img').first()).toBeVisible();
  });

  test('without JavaScript: the reader asks, the form confirms and returns to the chapter (pt-BR)', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(brUrl(`/comics/${DEMO.adult}/`));
    await expect(page.getByRole('heading', { level: 2, name: message('pt-BR', 'adult.gate.title') })).toBeVisible();
    // A chapter of the series, read from its page as a confirmed visitor would get it (this context stays unconfirmed).
    const confirmed = await (await page.request.get(enUrl(`/comics/${DEMO.adult}/?order=asc`), { headers: { cookie: 'adult=1' } })).text();
    const chapter = /<ol class="chapter-list"[\s\S]*?href="(\/read\/[^"]+)"/.exec(confirmed)![1]!;
    await page.goto(brUrl(chapter));
    await expect(page.getByRole('heading', { name: message('pt-BR', 'adult.gate.title') })).toBeVisible();
    await expect(page.locator('.reader-page img')).toHaveCount(0);
    await page.getByRole('button', { name: message('pt-BR', 'adult.gate.confirm') }).click();
    await expect(page).toHaveURL(brUrl(chapter));
    await expect(page.locator('.reader-page img').first()).toBeVisible();
    await page.goto(brUrl(`/comics/${DEMO.adult}/`));
    await expect(page.locator('[data-age-gate]')).toHaveCount(0);
    await expect(page.locator('ol.chapter-list').first()).toBeVisible();
    await context.close();
  });
});
