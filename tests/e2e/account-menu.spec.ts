/**
 * The signed-in header on phones and desktops (one row, the account menu by keyboard and mouse,
 * log out) and the one favorite control (in place with JavaScript, a form without it).
 */
import type { Browser, Page } from '@playwright/test';
import { DEMO } from '@db/seed/index';
import { accountButton, brUrl, enUrl, expect, message, signIn, test } from './fixtures';

const SITES = [
  { site: 'en', locale: 'en', url: enUrl },
  { site: 'br', locale: 'pt-BR', url: brUrl },
] as const;

const SERIES_PATH = `/comics/${DEMO.readerManga}/`;

/** The header bar's visible items (logo, nav, tools): how far apart their centres are, and the header's height. */
async function headerRow(page: Page): Promise<{ spread: number; height: number; overflow: number }> {
  return page.evaluate(() => {
    const items = [...document.querySelectorAll<HTMLElement>('.site-header .logo, .site-header .nav, .site-header .header-tools > :not(dialog)')].filter((e) => e.getBoundingClientRect().height > 0);
    const centres = items.map((e) => {
      const r = e.getBoundingClientRect();
      return r.top + r.height / 2;
    });
    return {
      spread: Math.max(...centres) - Math.min(...centres),
      height: document.querySelector('.site-header')!.getBoundingClientRect().height,
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    };
  });
}

/** The same page's header for an anonymous visitor at the same width. */
async function anonymousRow(browser: Browser, url: string, width: number) {
  const ctx = await browser.newContext({ viewport: { width, height: 800 } });
  const page = await ctx.newPage();
  await page.goto(url);
  const row = await headerRow(page);
  await ctx.close();
  return row;
}

test.describe('signed-in header', () => {
  for (const s of SITES) {
    for (const width of [360, 1280]) {
      test(`${s.site} at ${width} px: one row, as tall as the anonymous header`, async ({ page, browser, reader }) => {
        await page.setViewportSize({ width, height: 800 });
        if (s.site === 'br') await signIn(page, 'br', reader);
        await page.goto(s.url(SERIES_PATH));
        await expect(accountButton(page, s.locale, reader.name)).toBeVisible();
        const mine = await headerRow(page);
        expect(mine.spread, 'header items share one row').toBeLessThanOrEqual(2);
        expect(mine.overflow, 'no sideways scrolling').toBeLessThanOrEqual(0);
        const anon = await anonymousRow(browser, s.url(SERIES_PATH), width);
        expect(anon.spread, 'the anonymous header is one row too').toBeLessThanOrEqual(2);
        expect(Math.abs(mine.height - anon.height)).toBeLessThanOrEqual(1);
      });
    }
  }

  test('the anonymous header fits one row at 320 px on both sites, and the phone language link has a name', async ({ browser }) => {
    for (const s of SITES) {
      const ctx = await browser.newContext({ viewport: { width: 320, height: 700 } });
      const page = await ctx.newPage();
      await page.goto(s.url(SERIES_PATH));
      const row = await headerRow(page);
      expect(row.spread, s.site).toBeLessThanOrEqual(2);
      expect(row.overflow, s.site).toBeLessThanOrEqual(0);
      await expect(page.getByRole('banner').getByRole('link', { name: message(s.locale, 'header.language.switch') })).toBeVisible();
      await expect(page.getByRole('banner').getByRole('link', { name: message(s.locale, 'header.login'), exact: true })).toBeVisible();
      await ctx.close();
    }
  });

  test('the account menu opens by mouse and keyboard, closes on Escape (focus back), outside clicks and Tab past its end', async ({ page, reader }) => {
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto(SERIES_PATH);
    const button = accountButton(page, 'en', reader.name);
    const favorites = page.getByRole('banner').getByRole('link', { name: message('en', 'header.favorites'), exact: true });
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await expect(favorites).toBeHidden();

    // Mouse: opens; a click elsewhere closes.
    await button.click();
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    await expect(favorites).toBeVisible();
    // The balance comes from the ledger (a new reader has none yet).
    await expect(page.getByRole('banner').getByRole('link', { name: message('en', 'header.menu.balance', { keys: 0, xtra: 0 }) })).toBeVisible();
    // (Left of the panel, which opens under the button at the right.)
    await page.mouse.click(20, 600);
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await expect(favorites).toBeHidden();

    // Keyboard: Enter opens, Tab walks the items, Escape closes and returns focus to the button.
    await button.focus();
    await page.keyboard.press('Enter');
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('banner').getByRole('link', { name: message('en', 'header.menu.balance', { keys: 0, xtra: 0 }) })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('banner').getByRole('link', { name: message('en', 'purchase.title'), exact: true })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await expect(button).toBeFocused();
    // Space toggles too; tabbing out of the last item closes the menu.
    await page.keyboard.press(' ');
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    const logout = page.getByRole('button', { name: message('en', 'header.logout'), exact: true });
    await logout.focus();
    await page.keyboard.press('Tab');
    await expect(button).toHaveAttribute('aria-expanded', 'false');

    // The menu's links go where they say.
    await button.click();
    await favorites.click();
    await expect(page).toHaveURL(/\/my\/favorites\/$/);
  });

  test('logs out from the menu on the Portuguese site at 360 px', async ({ page, reader }) => {
    await page.setViewportSize({ width: 360, height: 800 });
    await signIn(page, 'br', reader);
    await page.goto(brUrl(SERIES_PATH));
    await accountButton(page, 'pt-BR', reader.name).click();
    await page.getByRole('button', { name: message('pt-BR', 'header.logout'), exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: message('pt-BR', 'auth.logout.confirm'), exact: true }).click();
    await expect(page.getByRole('banner').getByRole('link', { name: message('pt-BR', 'header.login'), exact: true })).toBeVisible();
    await expect(page.getByRole('banner')).not.toContainText(reader.name);
  });

  test('without JavaScript the menu is a disclosure and logging out is the confirmation page', async ({ browser, page, reader }) => {
    await page.goto('/');
    const ctx = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState(), viewport: { width: 360, height: 800 } });
    const nojs = await ctx.newPage();
    await nojs.goto(enUrl(SERIES_PATH));
    const banner = nojs.getByRole('banner');
    await expect(banner.getByRole('link', { name: message('en', 'header.favorites'), exact: true })).toBeHidden();
    await banner.locator('summary').click();
    await banner.getByRole('link', { name: message('en', 'header.logout'), exact: true }).click();
    await nojs.getByRole('button', { name: message('en', 'auth.logout.confirm'), exact: true }).click();
    await expect(nojs.getByRole('banner').getByRole('link', { name: message('en', 'header.login'), exact: true })).toBeVisible();
    await expect(nojs.getByRole('banner')).not.toContainText(reader.name);
    await ctx.close();
  });
});

/** Counts top-level navigations after this call. */
function navigations(page: Page): () => number {
  let n = 0;
  page.on('framenavigated', (f) => {
    if (f === page.mainFrame()) n++;
  });
  return () => n;
}

test.describe('the favorite control', () => {
  test('a listing card star toggles in place: no navigation, scroll kept, aria-pressed and name change', async ({ page, reader: _signedIn }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto('/comics/');
    const off = page.getByRole('main').getByRole('button', { name: /^Favorite / }).nth(5);
    const label = (await off.getAttribute('aria-label'))!;
    const name = label.slice('Favorite '.length);
    expect(label).toBe(message('en', 'series.favoriteNamed', { name }));
    await off.scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 120);
    await page.waitForFunction(() => scrollY > 0);
    const y = await page.evaluate(() => scrollY);
    const navs = navigations(page);
    await off.click();
    const on = page.getByRole('button', { name: message('en', 'series.favoritedNamed', { name }), exact: true });
    await expect(on).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('status').filter({ hasText: message('en', 'favorites.added') })).toHaveCount(1);
    expect(navs()).toBe(0);
    expect(Math.abs((await page.evaluate(() => scrollY)) - y)).toBeLessThanOrEqual(2);
    // And back off, still in place.
    await on.click();
    await expect(page.getByRole('button', { name: label, exact: true })).toHaveAttribute('aria-pressed', 'false');
    expect(navs()).toBe(0);
  });

  test('the series page star fills and says Favorited in place (Portuguese too)', async ({ page, reader }) => {
    await signIn(page, 'br', reader);
    await page.goto(brUrl(SERIES_PATH));
    await page.mouse.wheel(0, 100);
    await page.waitForFunction(() => scrollY > 0);
    const y = await page.evaluate(() => scrollY);
    const navs = navigations(page);
    await page.getByRole('button', { name: message('pt-BR', 'series.favorite'), exact: true }).click();
    const on = page.getByRole('button', { name: message('pt-BR', 'series.favorited'), exact: true });
    await expect(on).toHaveAttribute('aria-pressed', 'true');
    // Filled, not only a border.
    expect(await on.locator('svg path').evaluate((p) => getComputedStyle(p).fill)).not.toBe('none');
    expect(navs()).toBe(0);
    expect(Math.abs((await page.evaluate(() => scrollY)) - y)).toBeLessThanOrEqual(2);
  });

  test('without JavaScript the star is a form that comes back to the same card, favorited', async ({ browser, page, reader: _signedIn }) => {
    await page.goto('/');
    const ctx = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState(), viewport: { width: 390, height: 800 } });
    const nojs = await ctx.newPage();
    await nojs.goto(enUrl('/comics/'));
    const off = nojs.getByRole('main').getByRole('button', { name: /^Favorite / }).nth(6);
    const name = (await off.getAttribute('aria-label'))!.slice('Favorite '.length);
    await off.click();
    await nojs.waitForURL(/\/comics\/#fav-/);
    const on = nojs.getByRole('button', { name: message('en', 'series.favoritedNamed', { name }), exact: true });
    await expect(on).toHaveAttribute('aria-pressed', 'true');
    // Back at the card, not at the top of the page.
    await expect(on).toBeInViewport();

    // The series page's star too.
    await nojs.goto(enUrl(SERIES_PATH));
    await nojs.getByRole('button', { name: message('en', 'series.favorite'), exact: true }).click();
    await expect(nojs.getByRole('button', { name: message('en', 'series.favorited'), exact: true })).toHaveAttribute('aria-pressed', 'true');
    await ctx.close();
  });

  test('signed out, the star is a login link that comes back to it', async ({ page }) => {
    await page.goto(SERIES_PATH);
    const link = page.getByRole('link', { name: message('en', 'series.favorite'), exact: true });
    const href = (await link.getAttribute('href'))!;
    // With the favorite intent, which the login form finishes (tests/e2e/buy-to-read.spec.ts).
    expect(decodeURIComponent(href)).toMatch(new RegExp(`^/auth/login/\\?next=${SERIES_PATH.replace(/[/]/g, '\\/')}\\?intent=favorite%3ASER-\\w+#fav-`));
  });
});
