/**
 * The series page as a reader uses it: the sort toggle (remembered in localStorage), language
 * tabs driven by the address hash and the keyboard, the description expander, the language
 * switch to the other site (and its fallback), the no-JavaScript theme form and the page
 * without JavaScript. Demo series come from db/seed DEMO; words from i18n/*.json.
 */
import type { Locator, Page } from '@playwright/test';
import { DEMO } from '@db/seed/index';
import { brUrl, enUrl, expect, message, test } from './fixtures';

const ORDER_KEY = 'inkpass.chapterOrder';
const seriesPath = (slug: string) => `/comics/${slug}/`;
const en = (key: string, values?: Record<string, string | number>) => message('en', key, values);

/** The tab panel of a content language, by its tab's name ("English (64)"). */
const tabPanel = (page: Page, code: 'en' | 'pt-br') => page.getByRole('tabpanel', { name: en(`language.${code}`) });
/** A chapter row's link name starts with the chapter name ("Chapter 1: Title", "Chapter 1 Title …"), not "Chapter 10". */
const chapterName = (n: number | string) => new RegExp(`^${en('chapter.name.chapter', { num: String(n) }).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![0-9])(?![.,][0-9])`);
const firstRow = (panel: Locator) => panel.getByRole('listitem').first();
/** Asserts a language panel exists but is hidden (getByRole alone skips hidden elements). */
async function expectHiddenPanel(page: Page, code: 'en' | 'pt-br') {
  const panel = page.getByRole('tabpanel', { name: en(`language.${code}`), includeHidden: true });
  await expect(panel).toHaveCount(1);
  await expect(panel).toBeHidden();
}

test.describe('sort toggle', () => {
  test('reorders in place, is remembered across a plain reload, and Newest first restores', async ({ page }) => {
    const path = seriesPath(DEMO.readerManga);
    await page.goto(path);
    const panel = tabPanel(page, 'en');
    await expect(panel).toBeVisible();
    const newest = (await firstRow(panel).getByRole('link').first().getAttribute('href'))!;
    expect(newest).toMatch(/^\/read\//);
    await expect(firstRow(panel).getByRole('link').first()).not.toHaveAccessibleName(chapterName(1));
    const sort = page.getByRole('group', { name: en('series.sort.label') });
    const oldestLink = sort.getByRole('link', { name: en('series.sort.oldest') });
    const newestLink = sort.getByRole('link', { name: en('series.sort.newest') });
    await expect(newestLink).toHaveAttribute('aria-current', 'true');

    // No page load: a marker on window survives the click.
    await page.evaluate(() => { (window as unknown as { __samePage: boolean }).__samePage = true; });
    await oldestLink.click();
    await expect(firstRow(panel).getByRole('link').first()).toHaveAccessibleName(chapterName(1));
    expect(await page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBe(true);
    await expect(oldestLink).toHaveAttribute('aria-current', 'true');
    await expect(newestLink).not.toHaveAttribute('aria-current', 'true');
    expect(await page.evaluate((k) => localStorage.getItem(k), ORDER_KEY)).toBe('asc');

    // A plain series URL (no ?order=) still lists oldest first.
    await page.goto(path);
    expect(new URL(page.url()).pathname).toBe(path);
    await expect(firstRow(tabPanel(page, 'en')).getByRole('link').first()).toHaveAccessibleName(chapterName(1));
    await expect(page.getByRole('group', { name: en('series.sort.label') }).getByRole('link', { name: en('series.sort.oldest') })).toHaveAttribute('aria-current', 'true');

    await page.getByRole('group', { name: en('series.sort.label') }).getByRole('link', { name: en('series.sort.newest') }).click();
    await expect(firstRow(tabPanel(page, 'en')).getByRole('link').first()).toHaveAttribute('href', newest);
    expect(await page.evaluate((k) => localStorage.getItem(k), ORDER_KEY)).toBe('desc');
    await page.goto(path);
    await expect(firstRow(tabPanel(page, 'en')).getByRole('link').first()).toHaveAttribute('href', newest);
  });
});

test.describe('language tabs', () => {
  const path = seriesPath(DEMO.readerManga);

  test('show on a series in two languages; #language-pt-br selects Portuguese', async ({ page }) => {
    await page.goto(`${path}#language-pt-br`);
    const tabs = page.getByRole('tablist', { name: en('series.languages') });
    await expect(tabs).toBeVisible();
    await expect(tabs.getByRole('tab')).toHaveCount(2);
    await expect(page.getByRole('tab', { name: en('language.pt-br') })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tab', { name: en('language.en') })).toHaveAttribute('aria-selected', 'false');
    await expect(tabPanel(page, 'pt-br')).toBeVisible();
    await expectHiddenPanel(page, 'en');
    expect(new URL(page.url()).hash).toBe('#language-pt-br');
  });

  test('#language-en on the English site selects English and the hash becomes #languages', async ({ page }) => {
    await page.goto(`${path}#language-en`);
    await expect(page.getByRole('tab', { name: en('language.en') })).toHaveAttribute('aria-selected', 'true');
    await expect(tabPanel(page, 'en')).toBeVisible();
    await expectHiddenPanel(page, 'pt-br');
    await expect.poll(() => new URL(page.url()).hash).toBe('#languages');

    // The same on a hash change within the page.
    await page.goto(`${path}#language-pt-br`);
    await expect(page.getByRole('tab', { name: en('language.pt-br') })).toHaveAttribute('aria-selected', 'true');
    await page.goto(`${path}#language-en`);
    await expect(page.getByRole('tab', { name: en('language.en') })).toHaveAttribute('aria-selected', 'true');
    await expect.poll(() => new URL(page.url()).hash).toBe('#languages');
  });

  test('on the Portuguese site #language-pt-br is the own language and becomes #languages', async ({ page }) => {
    await page.goto(brUrl(`${path}#language-pt-br`));
    const pt = (key: string) => message('pt-BR', key);
    await expect(page.getByRole('tab', { name: pt('language.pt-br') })).toHaveAttribute('aria-selected', 'true');
    await expect.poll(() => new URL(page.url()).hash).toBe('#languages');
  });

  test('arrow keys move between tabs', async ({ page }) => {
    await page.goto(path);
    const enTab = page.getByRole('tab', { name: en('language.en') });
    const ptTab = page.getByRole('tab', { name: en('language.pt-br') });
    await expect(enTab).toHaveAttribute('aria-selected', 'true');
    await enTab.focus();
    await page.keyboard.press('ArrowRight');
    await expect(ptTab).toHaveAttribute('aria-selected', 'true');
    await expect(ptTab).toBeFocused();
    await expect(tabPanel(page, 'pt-br')).toBeVisible();
    await expectHiddenPanel(page, 'en');
    await page.keyboard.press('ArrowRight'); // wraps around
    await expect(enTab).toHaveAttribute('aria-selected', 'true');
    await expect(enTab).toBeFocused();
    await page.keyboard.press('ArrowLeft');
    await expect(ptTab).toHaveAttribute('aria-selected', 'true');
    await expect(ptTab).toBeFocused();
    // Only the selected tab is in the tab order.
    await expect(ptTab).toHaveAttribute('tabindex', '0');
    await expect(enTab).toHaveAttribute('tabindex', '-1');
  });
});

test.describe('description', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('"Show more" reveals the full text and flips aria-expanded', async ({ page }) => {
    await page.goto(seriesPath(DEMO.longList));
    const more = page.getByRole('button', { name: en('series.description.more') });
    await expect(more).toHaveAttribute('aria-expanded', 'false');
    const text = page.locator(`#${await more.getAttribute('aria-controls')}`);
    const clipped = () => text.evaluate((el) => el.scrollHeight > el.clientHeight + 2);
    expect(await clipped(), 'the description starts clamped').toBe(true);
    const before = (await text.boundingBox())!.height;

    await more.click();
    const less = page.getByRole('button', { name: en('series.description.less') });
    await expect(less).toHaveAttribute('aria-expanded', 'true');
    expect(await clipped(), 'the whole description shows').toBe(false);
    expect((await text.boundingBox())!.height).toBeGreaterThan(before);

    await less.click();
    await expect(page.getByRole('button', { name: en('series.description.more') })).toHaveAttribute('aria-expanded', 'false');
    expect(await clipped()).toBe(true);
  });
});

test.describe('relative times', () => {
  test('a scheduled chapter\'s countdown refreshes every minute', async ({ page }) => {
    await page.clock.install();
    await page.goto(seriesPath(DEMO.releaseSoon));
    const row = tabPanel(page, 'en').getByRole('listitem').filter({ has: page.getByText(en('chapter.scheduledLabel'), { exact: true }) }).last();
    await expect(row).toBeVisible();
    await expect(row.getByRole('link')).toHaveCount(0);
    const time = row.locator('time');
    const at = Date.parse((await time.getAttribute('datetime'))!) / 1000;
    const expected = () => page.evaluate((releasedAt) => {
      const diff = releasedAt - Date.now() / 1000;
      const units: [Intl.RelativeTimeFormatUnit, number][] = [['year', 31536000], ['month', 2592000], ['week', 604800], ['day', 86400], ['hour', 3600], ['minute', 60], ['second', 1]];
      const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
      const [unit, sec] = units.find(([, s]) => Math.abs(diff) >= s) ?? ['second', 1];
      return rtf.format(Math.round(diff / sec), unit);
    }, at);
    const before = await time.textContent();
    await page.clock.fastForward('02:00:00');
    await expect(time).not.toHaveText(before!);
    await expect(time).toHaveText(await expected());
  });
});

test.describe('language switch', () => {
  const path = seriesPath(DEMO.readerManga);
  const switchLink = (page: Page) => page.getByRole('link', { name: en('header.language.switch') });

  test('points at the same path on the other host and lands there', async ({ page }) => {
    await page.goto(path);
    await expect(switchLink(page)).toHaveAttribute('href', brUrl(path));
    await switchLink(page).click();
    await page.waitForURL(brUrl(path));
    await expect(page.locator('html')).toHaveAttribute('lang', 'pt-BR');
    // And back.
    await expect(page.getByRole('link', { name: message('pt-BR', 'header.language.switch') })).toHaveAttribute('href', enUrl(path));
    await page.getByRole('link', { name: message('pt-BR', 'header.language.switch') }).click();
    await page.waitForURL(enUrl(path));
  });

  test('falls back to the other site\'s home when the check fails', async ({ page }) => {
    await page.route(brUrl(path), (route) => (route.request().method() === 'HEAD' ? route.abort('failed') : route.continue()));
    await page.goto(path);
    await switchLink(page).click();
    await page.waitForURL(brUrl('/'));
    await expect(page.locator('html')).toHaveAttribute('lang', 'pt-BR');
  });

  test('falls back to the other site\'s home when the page is not found there', async ({ page }) => {
    await page.route(brUrl(path), (route) =>
      route.request().method() === 'HEAD'
        ? route.fulfill({ status: 404, headers: { 'access-control-allow-origin': enUrl('').replace(/\/$/, '') } })
        : route.continue());
    await page.goto(path);
    await switchLink(page).click();
    await page.waitForURL(brUrl('/'));
  });

  test('falls back to the other site\'s home when the check takes longer than 3 s', async ({ page }) => {
    let release: () => void = () => {};
    const held = new Promise<void>((r) => { release = r; });
    await page.route(brUrl(path), async (route) => {
      if (route.request().method() !== 'HEAD') return route.continue();
      await held;
      await route.abort('timedout').catch(() => {});
    });
    await page.goto(path);
    const started = Date.now();
    await switchLink(page).click();
    await page.waitForURL(brUrl('/'), { timeout: 6_000 });
    const took = Date.now() - started;
    release();
    expect(took, 'waited for the 3 s check').toBeGreaterThanOrEqual(2_500);
  });
});

test.describe('theme without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the toggle form flips data-theme after the redirect and keeps the page', async ({ page }) => {
    const path = seriesPath(DEMO.readerManga);
    await page.goto(path);
    const html = page.locator('html');
    const before = await html.getAttribute('data-theme');
    await page.getByRole('button', { name: en('header.theme.toggle') }).click();
    await page.waitForURL(enUrl(path));
    await expect(html).toHaveAttribute('data-theme', before === 'dark' ? 'light' : 'dark');
    const chosen = (await html.getAttribute('data-theme'))!;
    await page.reload();
    await expect(html).toHaveAttribute('data-theme', chosen);
    await page.getByRole('button', { name: en('header.theme.toggle') }).click();
    await page.waitForURL(enUrl(path));
    await expect(html).toHaveAttribute('data-theme', chosen === 'dark' ? 'light' : 'dark');
  });
});

test.describe('series page without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('hides the language tab bar, whose buttons cannot work without JavaScript', async ({ page }) => {
    await page.goto(seriesPath(DEMO.readerManga));
    // The markup marks the tablist `hidden` until the script enhances it; it must stay out of
    // sight and out of the accessibility tree (the tabs do nothing without the script).
    await expect(page.getByRole('tablist')).toBeHidden();
    await expect(page.getByRole('tab')).toHaveCount(0);
  });

  test('shows every language\'s chapters under headings, with working chapter links', async ({ page }) => {
    const path = seriesPath(DEMO.readerManga);
    await page.goto(path);
    for (const code of ['en', 'pt-br'] as const) {
      const panel = tabPanel(page, code);
      await expect(panel, code).toBeVisible();
      await expect(panel.getByRole('heading', { level: 3, name: en(`language.${code}`) })).toBeVisible();
      await expect(panel.getByRole('link', { name: chapterName(1) })).toBeVisible();
    }
    // Rows far from the screen are not laid out (content-visibility), yet every one is in the
    // page: the last row's link shows once scrolled to, and its box had a row's height before.
    const rows = tabPanel(page, 'en').locator('.chapter-row');
    const last = rows.last();
    expect(await last.evaluate((row) => getComputedStyle(row).contentVisibility)).toBe('auto');
    expect((await last.boundingBox())!.height).toBeGreaterThan(40);
    await last.getByRole('link').first().scrollIntoViewIfNeeded();
    await expect(last.getByRole('link').first()).toBeVisible();
    await expect(last.getByRole('link').first()).toHaveAttribute('href', /^\/read\//);
    // English chapter 1 opens in the reader.
    await tabPanel(page, 'en').getByRole('link', { name: chapterName(1) }).click();
    await page.waitForURL(/\/read\/[a-z0-9-]+\/[^/]+\/chapter-1\/$/);
    // Portuguese chapter 1 too, under its localized prefix.
    await page.goto(path);
    const href = (await tabPanel(page, 'pt-br').getByRole('link', { name: chapterName(1) }).getAttribute('href'))!;
    expect(href).toMatch(new RegExp(`^/read/${DEMO.readerManga}/[^/]+/capitulo-portugues-1/$`));
    const res = await page.goto(href);
    expect(res?.status()).toBe(200);
  });

  test('the sort links work as plain links', async ({ page }) => {
    const path = seriesPath(DEMO.readerManga);
    await page.goto(path);
    await page.getByRole('group', { name: en('series.sort.label') }).getByRole('link', { name: en('series.sort.oldest') }).click();
    await page.waitForURL((u) => u.pathname === path && u.searchParams.get('order') === 'asc');
    await expect(firstRow(tabPanel(page, 'en')).getByRole('link').first()).toHaveAccessibleName(chapterName(1));
  });
});
