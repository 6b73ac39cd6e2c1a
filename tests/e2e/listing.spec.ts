import type { Page } from '@playwright/test';
import { brUrl, expect, message, test } from './fixtures';

/** The results live region (swapped in place by src/features/catalog/listing.client.ts). */
const results = (page: Page) => page.locator('[data-listing-results]');

/** Series names in the results, in order. */
async function names(page: Page): Promise<string[]> {
  await expect(results(page)).toHaveAttribute('aria-busy', 'false');
  return results(page).getByRole('heading', { level: 3 }).allInnerTexts();
}

/** A value on `window` survives only if the page was not reloaded. */
async function markWindow(page: Page) {
  await page.evaluate(() => ((window as unknown as { __listingMarker?: string }).__listingMarker = 'same document'));
}
async function windowMarker(page: Page) {
  return page.evaluate(() => (window as unknown as { __listingMarker?: string }).__listingMarker ?? null);
}

test.describe('series listing', () => {
  test('filters by format and sorts by name in place, and Back restores the previous results', async ({ page }) => {
    await page.goto('/comics/');
    const initial = await names(page);
    expect(initial.length).toBeGreaterThan(1);
    await markWindow(page);

    await page.getByRole('checkbox', { name: message('en', 'format.MANGA') }).check();
    await expect(page).toHaveURL(/\/comics\/\?filter=manga$/);
    const manga = await names(page);
    expect(manga.length).toBeGreaterThan(0);
    const formats = await results(page).locator('.sc-format').allInnerTexts();
    expect(new Set(formats.map((f) => f.trim().toLowerCase()))).toEqual(new Set([message('en', 'format.MANGA').toLowerCase()]));

    const order = page.getByRole('navigation', { name: message('en', 'listing.order.label') });
    await order.getByRole('link', { name: message('en', 'listing.order.name'), exact: true }).click();
    await expect(page).toHaveURL(/\/comics\/\?filter=manga&order=name$/);
    await expect(order.getByRole('link', { name: message('en', 'listing.order.name'), exact: true })).toHaveAttribute('aria-current', 'true');
    const byName = await names(page);
    expect(byName).toEqual([...byName].sort());
    expect(await windowMarker(page)).toBe('same document');

    await page.goBack();
    await expect(page).toHaveURL(/\/comics\/\?filter=manga$/);
    await expect.poll(() => names(page)).toEqual(manga);
    await expect(page.getByRole('checkbox', { name: message('en', 'format.MANGA') })).toBeChecked();

    await page.goBack();
    await expect(page).toHaveURL(/\/comics\/$/);
    await expect.poll(() => names(page)).toEqual(initial);
    await expect(page.getByRole('checkbox', { name: message('en', 'format.MANGA') })).not.toBeChecked();
    expect(await windowMarker(page)).toBe('same document');
  });

  test('inverts the order and switches to the grid view without reloading', async ({ page }) => {
    await page.goto('/comics/?order=name');
    const asc = await names(page);
    await markWindow(page);
    await page.getByRole('link', { name: new RegExp(message('en', 'listing.order.invert')) }).click();
    await expect(page).toHaveURL(/order=-name/);
    const desc = await names(page);
    expect(desc).toEqual([...desc].sort().reverse());
    expect(desc[0]).not.toBe(asc[0]);

    await page.getByRole('link', { name: message('en', 'listing.view.grid') }).click();
    await expect(page).toHaveURL(/order=-name&view=grid/);
    await expect(results(page).locator('.grid')).toBeVisible();
    expect(await windowMarker(page)).toBe('same document');
    // The choice is remembered for the next visit without a view parameter.
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'view')?.value).toBe('grid');
    await page.goto('/comics/');
    await expect(results(page).locator('.grid')).toBeVisible();
  });

  test('keeps at least one language: unchecking the last one checks the other', async ({ page }) => {
    await page.goto('/comics/');
    const english = page.getByRole('checkbox', { name: message('en', 'listing.language.en') });
    const portuguese = page.getByRole('checkbox', { name: message('en', 'listing.language.pt') });
    await expect(english).toBeChecked();
    await expect(portuguese).not.toBeChecked();

    await english.uncheck();
    await expect(portuguese).toBeChecked();
    await expect(english).not.toBeChecked();
    await expect(page).toHaveURL(/site_id=3/);

    await english.check();
    await expect(page).toHaveURL(/show_all_sites=true/);
    await expect(english).toBeChecked();
    await expect(portuguese).toBeChecked();
  });

  test('the Portuguese site starts with Brazilian Portuguese only', async ({ page }) => {
    await page.goto(brUrl('/comics/'));
    await expect(page.getByRole('checkbox', { name: message('pt-BR', 'listing.language.pt') })).toBeChecked();
    await expect(page.getByRole('checkbox', { name: message('pt-BR', 'listing.language.en') })).not.toBeChecked();
    await page.getByRole('checkbox', { name: message('pt-BR', 'listing.language.pt') }).uncheck();
    await expect(page.getByRole('checkbox', { name: message('pt-BR', 'listing.language.en') })).toBeChecked();
    await expect(page).toHaveURL(/site_id=1/);
  });

  test('a search with no results shows "Couldn\'t find a series?" with the community chat link', async ({ page }) => {
    await page.goto('/comics/');
    await markWindow(page);
    const box = page.getByRole('main').getByRole('searchbox', { name: message('en', 'listing.search.label') });
    await box.fill('qqzzxx no such series');
    await box.press('Enter');
    await expect(page.getByRole('heading', { name: message('en', 'listing.notFound.title') })).toBeVisible();
    await expect(page.getByRole('link', { name: message('en', 'listing.notFound.link') })).toHaveAttribute('href', /^https:\/\/discord\.gg\//);
    await expect(page).toHaveURL(/q=qqzzxx\+no\+such\+series/);
    await expect(box).toBeFocused();
    expect(await windowMarker(page)).toBe('same document');
  });

  test('pagination swaps the page and keeps focus in the results', async ({ page }) => {
    await page.goto('/comics/?show_all_sites=true');
    const pager = page.getByRole('navigation', { name: message('en', 'listing.pagination.label') });
    // The demo catalogue has more series than one page holds (24) when both languages are shown.
    await expect(pager).toHaveCount(1);
    const first = await names(page);
    await pager.getByRole('link', { name: message('en', 'pagination.next') }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect.poll(() => names(page)).not.toEqual(first);
    await expect(results(page).getByRole('heading', { level: 2 })).toBeFocused();
  });
});

test.describe('series listing without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('order links and the filter form work as plain navigation', async ({ page }) => {
    await page.goto('/comics/');
    await page.getByRole('navigation', { name: message('en', 'listing.order.label') }).getByRole('link', { name: message('en', 'listing.order.name'), exact: true }).click();
    await expect(page).toHaveURL(/\/comics\/\?order=name$/);
    const byName = await results(page).getByRole('heading', { level: 3 }).allInnerTexts();
    expect(byName).toEqual([...byName].sort());

    await page.getByRole('checkbox', { name: message('en', 'format.WEBTOON') }).check();
    await page.getByRole('checkbox', { name: message('en', 'listing.language.en') }).uncheck();
    await page.getByRole('button', { name: message('en', 'listing.filter.apply') }).click();
    // The form is redirected to the canonical URL; unchecking the last language checked the other.
    await expect(page).toHaveURL(/\/comics\/\?filter=webtoon&order=name&site_id=3$/);
    await expect(page.getByRole('checkbox', { name: message('en', 'listing.language.pt') })).toBeChecked();
  });
});
