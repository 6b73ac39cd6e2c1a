/**
 * The browse pages (issue 30; docs/home.md, "Browse pages") reached the way a reader reaches
 * them, on both sites: the home blocks' "see all" links (latest updates, new series, popular,
 * genres), the footer's links, a collection from /genres/, and the updates' previous/next
 * links; the same walk with JavaScript off. Words from i18n/*.json.
 */
import type { Page } from '@playwright/test';
import { COLLECTIONS } from '@db/seed/collections';
import { brUrl, enUrl, expect, message, revealHomeBlocks, test } from './fixtures';

const SITES = [
  { name: 'English', locale: 'en' as const, url: enUrl, collection: COLLECTIONS[1][0]! },
  { name: 'Portuguese', locale: 'pt-BR' as const, url: brUrl, collection: COLLECTIONS[3][0]! },
];

const h1 = (page: Page) => page.getByRole('heading', { level: 1 });
const footer = (page: Page) => page.locator('footer.site-footer');

for (const site of SITES) {
  const t = (key: string, values?: Record<string, string | number>) => message(site.locale, key, values);

  test(`the ${site.name} home's "see all" links open the latest updates, new series, top and genres pages`, async ({ page }) => {
    test.setTimeout(90_000);
    for (const [block, heading, path, title] of [
      ['latest', 'home.latest', '/updates/', 'browse.updates.title'],
      ['newest', 'home.newest', '/new/', 'browse.new.title'],
      ['popular', 'home.popular', '/top/', 'browse.top.title'],
      ['genres', 'home.genres', '/genres/', 'browse.genres.title'],
    ] as const) {
      await page.goto(site.url('/'));
      await revealHomeBlocks(page, block);
      const section = page.locator('section, div').filter({ has: page.getByRole('heading', { level: 2, name: t(heading), exact: true }) }).last();
      await section.getByRole('link', { name: t('home.seeAll'), exact: true }).click();
      await expect(page).toHaveURL(site.url(path));
      await expect(h1(page)).toHaveText(t(title));
    }
  });

  test(`the ${site.name} footer reaches every browse page, and /genres/ its collections`, async ({ page }) => {
    await page.goto(site.url('/'));
    await footer(page).getByRole('link', { name: t('browse.top.title'), exact: true }).click();
    await expect(h1(page)).toHaveText(t('browse.top.title'));
    // One section per format, each a heading and its cards.
    const manga = page.getByRole('region', { name: t('browse.top.section', { format: t('format.MANGA') }) });
    await expect(manga.getByRole('listitem').first()).toBeVisible();

    await footer(page).getByRole('link', { name: t('browse.new.title'), exact: true }).click();
    await expect(h1(page)).toHaveText(t('browse.new.title'));
    await expect(page.locator('main article.series-card').first()).toBeVisible();

    await footer(page).getByRole('link', { name: t('browse.genres.title'), exact: true }).click();
    await expect(h1(page)).toHaveText(t('browse.genres.title'));
    // Each genre's heading links to the listing filtered by it.
    const firstGenre = page.locator('main section.browse-section h2 a').first();
    const genre = (await firstGenre.textContent())!.trim();
    await page.getByRole('link', { name: t('browse.genres.seeAll', { genre }), exact: true }).click();
    await expect(page).toHaveURL(/\/comics\/\?filter=[a-z-]+$/);
    await page.goBack();

    await page.getByRole('navigation', { name: t('browse.collections.heading') }).getByRole('link', { name: site.collection.title, exact: true }).click();
    await expect(page).toHaveURL(site.url(`/collections/${site.collection.slug}/`));
    await expect(h1(page)).toHaveText(site.collection.title);
    await expect(page.locator('main article.series-card').first()).toBeVisible();

    await footer(page).getByRole('link', { name: t('browse.updates.title'), exact: true }).click();
    await expect(h1(page)).toHaveText(t('browse.updates.title'));
  });

  test(`the ${site.name} browse pages work without JavaScript, the updates paged by their links`, async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 800 } });
    const page = await context.newPage();
    try {
      await page.goto(site.url('/'));
      await footer(page).getByRole('link', { name: t('browse.updates.title'), exact: true }).click();
      await expect(h1(page)).toHaveText(t('browse.updates.title'));
      const entries = page.locator('main li.latest-entry');
      const first = await entries.count();
      expect(first).toBeGreaterThan(0);
      expect(first).toBeLessThanOrEqual(15);
      const pager = page.getByRole('navigation', { name: t('browse.updates.pages') });
      if (first === 15 && (await pager.getByRole('link', { name: t('pagination.next') }).count()) > 0) {
        const firstName = await entries.first().locator('.latest-name').textContent();
        await pager.getByRole('link', { name: t('pagination.next') }).click();
        await expect(page).toHaveURL(site.url('/updates/?page=2'));
        await expect(page.locator('main li.latest-entry').first().locator('.latest-name')).not.toHaveText(firstName!);
        await page.getByRole('navigation', { name: t('browse.updates.pages') }).getByRole('link', { name: t('pagination.previous') }).click();
        await expect(page).toHaveURL(site.url('/updates/'));
      }
      for (const title of ['browse.genres.title', 'browse.new.title', 'browse.top.title'] as const) {
        await footer(page).getByRole('link', { name: t(title), exact: true }).click();
        await expect(h1(page)).toHaveText(t(title));
        await expect(page.locator('main a[href^="/comics/"]').first()).toBeVisible();
      }
    } finally {
      await context.close();
    }
  });
}
