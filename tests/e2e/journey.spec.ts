/**
 * The product owner's journey, once per site: sign up (terms enforced), log out through the
 * header dialog, log in again from a series page, favorite the series, read a free chapter to
 * its end, find it in the history ("Read Again") and on the favorites page (last read), remove
 * the favorite and undo, log out. Every label comes from the site's own catalogue.
 *
 * Each run signs up two fresh accounts (sign-ups are limited to 5 per hour per IP, and the
 * e2e database is fresh for every `playwright test` invocation; auth.spec.ts signs up one more).
 */
import crypto from 'node:crypto';
import type { Page } from '@playwright/test';
import { DEMO } from '@db/seed/index';
import { brUrl, enUrl, expect, message, openAccountMenu, test } from './fixtures';

type Locale = 'en' | 'pt-BR';

const SITES: { locale: Locale; url: (p?: string) => string; series: string }[] = [
  // COMIC (left to right), free English chapters.
  { locale: 'en', url: enUrl, series: DEMO.readerComic },
  // MANGA (right to left), en + pt-br: the Portuguese site lists its Portuguese chapters.
  { locale: 'pt-BR', url: brUrl, series: DEMO.readerManga },
];

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function logOut(page: Page, locale: Locale, displayName: string) {
  const t = (key: string) => message(locale, key);
  await openAccountMenu(page, locale, displayName);
  await page.getByRole('button', { name: t('header.logout'), exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: t('auth.logout.confirm'), exact: true }).click();
  await expect(page.getByRole('link', { name: t('header.login'), exact: true })).toBeVisible();
  await expect(page.getByRole('banner')).not.toContainText(displayName);
}

for (const site of SITES) {
  test(`journey on the ${site.locale} site: sign up, log in, favorite, read, history, favorites, log out`, async ({ page }) => {
    test.setTimeout(90_000);
    const { locale, url } = site;
    const t = (key: string, values?: Record<string, string | number>) => message(locale, key, values);
    const id = crypto.randomBytes(4).toString('hex');
    const email = `journey-${id}@example.test`;
    const password = `journey-pass-${id}`;
    const displayName = `Journey ${id}`;
    const header = page.getByRole('banner');

    // Sign up: first without the terms box (blocked in the page), then with it.
    await page.goto(url('/auth/signup/'));
    await expect(page.getByRole('heading', { level: 1, name: t('auth.signup.title') })).toBeVisible();
    await page.getByLabel(t('auth.field.email')).fill(email);
    await page.getByLabel(t('auth.field.displayName')).fill(displayName);
    await page.getByLabel(t('auth.field.password')).fill(password);
    await page.getByRole('button', { name: t('auth.signup.submit') }).click();
    await expect(page.getByText(t('auth.signup.termsRequired', { product: 'Inkpass' }))).toBeVisible();
    await expect(page).toHaveURL(url('/auth/signup/'));

    await page.getByRole('checkbox', { name: t('auth.signup.terms') }).check();
    await page.getByRole('button', { name: t('auth.signup.submit') }).click();
    await expect(page).toHaveURL(url('/'));
    await expect(header).toContainText(displayName);

    // Log out through the header dialog.
    await logOut(page, locale, displayName);

    // Log in again from the series page's header link: back on the series page.
    const seriesPath = `/comics/${site.series}/`;
    await page.goto(url(seriesPath));
    await page.getByRole('link', { name: t('header.login'), exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/auth/login/\\?next=${escapeRe(encodeURIComponent(seriesPath))}`));
    await page.getByLabel(t('auth.field.email')).fill(email);
    await page.getByLabel(t('auth.field.password')).fill(password);
    await page.getByRole('button', { name: t('auth.login.submit') }).click();
    await expect(page).toHaveURL(url(seriesPath));
    await expect(header).toContainText(displayName);

    // Favorite the series.
    const seriesName = (await page.getByRole('heading', { level: 1 }).textContent())!.trim();
    const star = page.getByRole('button', { name: t('series.favorite'), exact: true });
    await expect(star).toHaveAttribute('aria-pressed', 'false');
    await star.click();
    const favorited = page.getByRole('button', { name: t('series.favorited'), exact: true });
    await expect(favorited).toHaveAttribute('aria-pressed', 'true');
    await expect(favorited).toBeEnabled();

    // Open the first free chapter in the site's own language.
    // The site's own language panel (en / pt-br) is the visible one.
    const panel = page.locator(`.tab-panel[data-code="${locale === 'en' ? 'en' : 'pt-br'}"]`);
    await expect(panel).toBeVisible();
    const freeRow = panel
      .locator('li.chapter-row')
      .filter({ has: page.getByText(t('chapter.price.free'), { exact: true }) })
      .first();
    const chapterLink = freeRow.getByRole('link').first();
    const href = (await chapterLink.getAttribute('href'))!;
    expect(href).toMatch(/^\/read\//);
    await chapterLink.click();
    await expect(page).toHaveURL(url(href));
    if (locale === 'pt-BR') await expect(page.locator('html')).toHaveAttribute('lang', /^pt/i);
    const reader = page.locator('#reader.is-js');
    await expect(reader).toBeVisible();
    // `is-js` comes from an inline script while the page parses; the keys are handled once the
    // reader's module has run (it marks the element data-ready). Keys pressed before that are the
    // browser's: a click-navigation does not wait for the load event as page.goto does.
    await expect(reader).toHaveAttribute('data-ready', '1');
    await expect(page.locator('#reader')).toHaveAttribute('data-progress-token', /^p1\./);

    // Read to the end with the keyboard (PageDown is "next" in both paged modes).
    const total = await page.locator('.reader-page img').count();
    expect(total).toBeGreaterThan(0);
    const completed = page.waitForResponse(
      (r) => r.url().endsWith('/api/progress/') && r.request().method() === 'POST' && (r.request().postData() ?? '').includes('"completed":true'),
    );
    for (let i = 0; i < total; i++) await page.keyboard.press('PageDown');
    expect((await completed).status()).toBe(200);
    const end = page.locator('.reader-end');
    await expect(end).toBeVisible();
    await expect(end.getByText(new RegExp(`^${escapeRe(t('reader.endOfChapter', { chapter: '\u0000' })).replace('\u0000', '.+')}$`))).toBeVisible();
    await expect(page.getByRole('button', { name: t('reader.nextPage'), exact: true })).toBeDisabled();

    // History: the series; the chapter is finished, so its button reads Read Again (spec section 4), then names the rule's chapter.
    await page.goto(url('/my/history/'));
    await expect(page.getByRole('heading', { level: 1, name: t('history.title') })).toBeVisible();
    const historyEntry = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: seriesName, exact: true }) });
    await expect(historyEntry).toHaveCount(1);
    await expect(historyEntry.locator('a.history-action')).toHaveText(new RegExp(`^${escapeRe(t('chapter.readAgain'))} .+$`));
    await expect(historyEntry.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');

    // Favorites: the series with a last-read value.
    await page.goto(url('/my/favorites/'));
    await expect(page.getByRole('heading', { level: 1, name: t('favorites.title') })).toBeVisible();
    const favorite = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: seriesName, exact: true }) });
    await expect(favorite).toHaveCount(1);
    await expect(favorite).toContainText(`${t('favorites.lastRead')}:`);
    await expect(favorite).not.toContainText(`${t('favorites.lastRead')}: ${t('favorites.neverRead')}`);
    await expect(favorite.locator('span', { hasText: `${t('favorites.lastRead')}:` }).locator('time')).toHaveCount(1);

    // Remove and undo: the entry is back, also after a reload.
    await favorite.getByRole('button', { name: t('favorites.remove'), exact: true }).click();
    const undo = favorite.getByRole('button', { name: t('favorites.undo'), exact: true });
    await expect(undo).toBeVisible();
    await undo.click();
    await expect(favorite.getByRole('button', { name: t('favorites.remove'), exact: true })).toBeVisible();
    await expect(favorite).not.toHaveClass(/is-removed/);
    await page.reload();
    await expect(favorite).toHaveCount(1);
    await expect(favorite.getByRole('button', { name: t('favorites.remove'), exact: true })).toBeVisible();

    // Log out.
    await logOut(page, locale, displayName);
  });
}
