/**
 * One search that forgives (issue 26): on both sites, on a phone (390 px) and a desktop
 * (1280 px), a misspelled search ends on the series by Enter as it does by suggestion: Enter
 * goes to the listing (as Webtoon and Tapas take it to a results page), whose first card is the
 * series the suggestions put first. A text that matches nothing offers "Did you mean …?".
 */
import type { Page } from '@playwright/test';
import { brUrl, enUrl, expect, message, test } from './fixtures';

const SITES = [
  { name: 'English site', locale: 'en' as const, url: enUrl, typo: 'villanes', slug: 'the-villainess-retires-early', shown: 'The Villainess Retires Early', far: 'clokwrok sherif', closest: 'The Clockwork Sheriff' },
  { name: 'Portuguese site', locale: 'pt-BR' as const, url: brUrl, typo: 'vila se aposnta', slug: 'the-villainess-retires-early', shown: 'A Vilã se Aposenta Cedo', far: 'corasaum de aso', closest: 'Coração de Aço' },
];

// Each test loads the home page and the island twice or so, the listing and series pages.
test.describe.configure({ timeout: 90_000 });

for (const site of SITES) {
  const t = (key: string, values?: Record<string, string | number>) => message(site.locale, key, values);
  const dialog = (page: Page) => page.getByRole('dialog', { name: t('search.dialog.label') });
  const combobox = (page: Page) => dialog(page).getByRole('combobox', { name: t('header.search.label') });

  async function typeInOverlay(page: Page, text: string) {
    await page.goto(site.url('/'));
    await page.getByRole('banner').getByRole('searchbox', { name: t('header.search.label') }).click();
    // The island (React) loads on this first use: give a busy machine time.
    await expect(combobox(page)).toBeFocused({ timeout: 15_000 });
    await combobox(page).fill(text);
  }

  // One test per width: at 390 px the suggestion is clicked, and a text matching nothing offers
  // "Did you mean"; at 1280 px Enter goes through the listing, whose own box then ranks by
  // relevance. Each flow's page loads once (the suite's time budget, docs/testing.md).
  test.describe(`${site.name} at 390 px`, () => {
    test.use({ viewport: { width: 390, height: 800 } });

    test(`"${site.typo}" ends on the series by suggestion; "${site.far}" matches nothing and offers "Did you mean" the closest series`, async ({ page }) => {
      await typeInOverlay(page, site.typo);
      const first = dialog(page).getByRole('listbox').getByRole('option').first();
      await expect(first).toContainText(site.shown, { timeout: 10_000 });
      await first.click();
      await expect(page).toHaveURL(site.url(`/comics/${site.slug}/`));

      await typeInOverlay(page, site.far);
      await expect(dialog(page).getByRole('status')).toHaveText(t('search.noResults'));
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/\/comics\/\?q=/);
      await expect(page.getByRole('heading', { name: t('listing.notFound.title') })).toBeVisible();
      const offer = page.locator('[data-did-you-mean]');
      await expect(offer).toContainText(t('listing.didYouMean', { series: site.closest }));
      await offer.getByRole('link', { name: site.closest }).click();
      await expect(page.getByRole('heading', { level: 1 })).toContainText(site.closest);
    });
  });

  test.describe(`${site.name} at 1280 px`, () => {
    test.use({ viewport: { width: 1280, height: 800 } });

    test(`"${site.typo}" ends on the series by Enter through the listing whose first card it is; typed in the listing's own box it ranks by relevance, and clearing it goes back to newest first`, async ({ page }) => {
      await typeInOverlay(page, site.typo);
      await expect(dialog(page).getByRole('listbox').getByRole('option').first()).toContainText(site.shown, { timeout: 10_000 });
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/\/comics\/\?q=/);
      await expect(page.getByRole('heading', { name: t('listing.notFound.title') })).toHaveCount(0);
      // The card's title link (a grid card is one link, a list row has the title and the favorite form).
      const card = page.locator('#listing-results li').first().getByRole('link', { name: site.shown }).first();
      await expect(card).toBeVisible();
      await card.click();
      await expect(page).toHaveURL(site.url(`/comics/${site.slug}/`));
      await expect(page.getByRole('heading', { level: 1 })).toContainText(site.shown);

      await page.goto(site.url('/comics/'));
      const order = page.getByRole('navigation', { name: t('listing.order.label') });
      const relevance = order.getByRole('link', { name: t('listing.order.relevance') });
      await expect(relevance).toBeHidden();
      await page.getByRole('searchbox', { name: t('listing.search.label') }).fill(site.typo);
      await expect(page).toHaveURL(/\/comics\/\?q=/, { timeout: 10_000 });
      await expect(relevance).toHaveAttribute('aria-current', 'true');
      await expect(page.locator('#listing-results li').first().getByRole('link', { name: site.shown }).first()).toBeVisible();
      await page.getByRole('searchbox', { name: t('listing.search.label') }).fill('');
      await expect(relevance).toBeHidden();
      await expect(order.getByRole('link', { name: t('listing.order.updated'), exact: true })).toHaveAttribute('aria-current', 'true');
    });
  });
}

// With a search the order switch has five names and no invert button; on phones and small
// tablets (the switch is laid out in rows up to 560 px) nothing may cover another control.
test('with a search, the order names and the view switch do not overlap from 320 to 560 px', async ({ page }) => {
  await page.goto(brUrl('/comics/?q=vilas'));
  for (const width of [320, 390, 480, 520, 560]) {
    await page.setViewportSize({ width, height: 800 });
    const boxes = await page.locator('.ls-order li:not([hidden]) a, .ls-view a').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect));
    expect(boxes.length).toBe(7);
    for (const [i, a] of boxes.entries()) {
      expect(a.right, `control ${i} at ${width} px stays on the page`).toBeLessThanOrEqual(width);
      for (const b of boxes.slice(i + 1)) {
        const overlap = a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
        expect(overlap, `controls overlap at ${width} px`).toBe(false);
      }
    }
  }
});
