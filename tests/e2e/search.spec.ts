/**
 * The search overlay ("Search bar overlay", 5 and 7): opening from
 * the header loads React only then; suggestions as the reader types (nothing below 2
 * characters, stale answers dropped); the ARIA combobox keys; Escape and a click outside; the
 * language filter's at-least-one rule; submitting to the listing. What each site says and
 * searches is checked on both sites, keys, focus and timing on the English one.
 */
import type { Page, Request } from '@playwright/test';
import { DEMO } from '@db/seed/index';
import { brUrl, enUrl, expect, message, test } from './fixtures';

const SITES = [
  { name: 'English site', locale: 'en' as const, url: enUrl, own: 'search.languages.en', other: 'search.languages.pt', ownParam: ['site_id', '1'], otherParam: ['site_id', '3'] },
  { name: 'Portuguese site', locale: 'pt-BR' as const, url: brUrl, own: 'search.languages.pt', other: 'search.languages.en', ownParam: ['site_id', '3'], otherParam: ['site_id', '1'] },
];

/** The name each site shows (the Portuguese site shows the series' Portuguese name). */
const BLADE = { en: 'Blade of the Quiet Moon', 'pt-BR': 'Lâmina da Lua Silenciosa' } as const;

/** Requests to the suggestions endpoint made by the page. */
function suggestRequests(page: Page): URL[] {
  const seen: URL[] = [];
  page.on('request', (r: Request) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/search/suggest')) seen.push(u);
  });
  return seen;
}

for (const site of SITES) {
  const t = (key: string, values?: Record<string, string | number>) => message(site.locale, key, values);
  const blade = BLADE[site.locale as keyof typeof BLADE];
  // Keys, focus and timing behave alike on both sites: checked on the first; what each site says
  // and searches (suggestions, counts, languages, empty and failed answers) on both.
  const first = site === SITES[0];

  test.describe(`search overlay (${site.name})`, () => {
    const headerField = (page: Page) => page.getByRole('banner').getByRole('searchbox', { name: t('header.search.label') });
    const dialog = (page: Page) => page.getByRole('dialog', { name: t('search.dialog.label') });
    const combobox = (page: Page) => dialog(page).getByRole('combobox', { name: t('header.search.label') });
    const listbox = (page: Page) => dialog(page).getByRole('listbox', { name: t('search.suggestions.label') });

    async function open(page: Page) {
      await page.goto(site.url('/'));
      await headerField(page).click();
      await expect(dialog(page)).toBeVisible();
      await expect(combobox(page)).toBeFocused();
    }

    if (first) test('tabbing through the header passes the field by; click, Enter and / open the overlay', async ({ page }) => {
      await page.goto(site.url('/'));
      await page.waitForLoadState('networkidle');
      await page.keyboard.press('Tab');
      await expect(page.getByRole('link', { name: t('nav.skip') })).toBeFocused();
      // Focus alone never opens the overlay (WCAG 3.2.1): Tab reaches the field and moves on.
      let reached = false;
      for (let i = 0; i < 15 && !reached; i++) {
        await page.keyboard.press('Tab');
        reached = await headerField(page).evaluate((el) => el === document.activeElement);
      }
      expect(reached, 'Tab reaches the header field').toBe(true);
      await page.waitForTimeout(300);
      await expect(dialog(page)).toBeHidden();
      await page.keyboard.press('Tab');
      await expect(page.getByRole('banner').getByRole('button', { name: t('header.search.submit') })).toBeFocused();
      await expect(dialog(page)).toBeHidden();
      await page.keyboard.press('Tab');
      await expect(dialog(page)).toBeHidden();
      expect(await page.getByRole('banner').evaluate((b) => b.contains(document.activeElement))).toBe(true);

      // Enter on the field's button, then Enter in the field, then a click, then `/` from outside a field.
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Enter');
      await expect(combobox(page)).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(headerField(page)).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(combobox(page)).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(dialog(page)).toBeHidden();
      await headerField(page).click();
      await expect(combobox(page)).toBeFocused();
      await page.keyboard.press('Escape');
      await headerField(page).evaluate((el) => el.blur());
      await page.keyboard.press('/');
      await expect(combobox(page)).toBeFocused();
      await expect(combobox(page)).toHaveValue('');
    });

    if (first) test('React loads only when the overlay first opens', async ({ page }) => {
      const scripts: { url: string; react: boolean }[] = [];
      page.on('response', async (res) => {
        if (res.request().resourceType() !== 'script') return;
        const body = await res.text().catch(() => '');
        scripts.push({ url: res.url(), react: body.includes('react.transitional.element') });
      });
      await page.goto(site.url('/'));
      await page.waitForLoadState('networkidle');
      expect(scripts.length, 'the header script loads up front').toBeGreaterThan(0);
      expect(scripts.filter((s) => s.react), 'no React before opening').toEqual([]);
      const html = await page.content();
      // Neither loaded nor announced for preloading (modulepreload links name the chunks too).
      expect(html).not.toMatch(/overlay-entry|client\.[\w-]+\.js/);

      await headerField(page).click();
      await expect(dialog(page)).toBeVisible();
      await expect.poll(() => scripts.some((s) => s.react), { message: 'React arrives on open' }).toBe(true);
    });

    test('typing shows suggestions with covers, names and a result count; 1 character sends nothing', async ({ page }) => {
      const requests = suggestRequests(page);
      await open(page);
      await combobox(page).pressSequentially('b');
      await page.waitForTimeout(600);
      expect(requests, 'no request below 2 characters').toEqual([]);
      await expect(combobox(page)).toHaveAccessibleDescription(t('search.hint'));
      await expect(combobox(page)).toHaveAttribute('aria-expanded', 'false');

      await combobox(page).pressSequentially('lade');
      const option = listbox(page).getByRole('option', { name: new RegExp(blade) });
      await expect(option).toBeVisible();
      await expect(combobox(page)).toHaveAttribute('aria-expanded', 'true');
      await expect(option.locator('img')).toHaveAttribute('width', /\d+/);
      await expect(option.locator('img')).toHaveAttribute('height', /\d+/);
      // Debounced: not one request per key. Typed without pauses this is one request for the
      // whole word; a busy machine can stretch one gap between keys past the 200 ms debounce,
      // so what is asserted is fewer requests than keys, each for what had been typed, the last
      // for the whole word.
      const typed = requests.map((r) => r.searchParams.get('q'));
      expect(typed.length, `requests: ${typed.join(', ')}`).toBeLessThan('lade'.length);
      for (const q of typed) expect(['bl', 'bla', 'blad', 'blade']).toContain(q);
      const last = requests.at(-1)!;
      expect(last.searchParams.get('q')).toBe('blade');
      expect(last.searchParams.get('cover')).toBe('true');
      expect(last.searchParams.get(site.ownParam[0]!)).toBe(site.ownParam[1]);
      const count = await listbox(page).getByRole('option').count();
      await expect(dialog(page).getByRole('status')).toHaveText(
        count === 1 ? t('search.results.one', { count: '{count}' }).replace('{count}', '1') : t('search.results.other', { count: '{count}' }).replace('{count}', String(count)),
      );

      // Back below 2 characters: the list clears at once.
      await combobox(page).fill('b');
      await expect(listbox(page)).toBeHidden();
      await expect(combobox(page)).toHaveAttribute('aria-expanded', 'false');
    });

    if (first) test('arrow keys move through the options (wrapping) and Enter opens the series', async ({ page }) => {
      await open(page);
      await combobox(page).fill('the');
      const options = listbox(page).getByRole('option');
      await expect(options.first()).toBeVisible();
      const n = await options.count();
      expect(n).toBeGreaterThan(1);
      await page.keyboard.press('ArrowDown');
      await expect(options.nth(0)).toHaveAttribute('aria-selected', 'true');
      await expect(combobox(page)).toHaveAttribute('aria-activedescendant', (await options.nth(0).getAttribute('id'))!);
      await page.keyboard.press('ArrowUp');
      await expect(options.nth(n - 1)).toHaveAttribute('aria-selected', 'true');
      await expect(options.nth(0)).toHaveAttribute('aria-selected', 'false');
      await page.keyboard.press('ArrowDown');
      await expect(options.nth(0)).toHaveAttribute('aria-selected', 'true');

      await combobox(page).fill('blade of the quiet');
      const bladeOption = listbox(page).getByRole('option', { name: new RegExp(blade) });
      await expect(bladeOption).toBeVisible();
      await expect(options).toHaveCount(1);
      await page.keyboard.press('ArrowDown');
      await expect(bladeOption).toHaveAttribute('aria-selected', 'true');
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(`${site.url(`/comics/${DEMO.decimal}/`)}`);
    });

    if (first) test('Enter without a highlighted option goes to the listing with the query', async ({ page }) => {
      await open(page);
      await combobox(page).fill('blade moon');
      await expect(listbox(page).getByRole('option').first()).toBeVisible();
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(site.url('/comics/?q=blade+moon'));
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    });

    if (first) test('Escape clears the list, then closes and returns focus to the header field; the form is reset', async ({ page }) => {
      await open(page);
      await combobox(page).fill('blade');
      await expect(listbox(page)).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(listbox(page)).toBeHidden();
      await expect(combobox(page)).toHaveAttribute('aria-expanded', 'false');
      await expect(dialog(page)).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(dialog(page)).toBeHidden();
      await expect(headerField(page)).toBeFocused();
      // Focus coming back does not reopen it; a click does, with an empty form.
      await page.waitForTimeout(300);
      await expect(dialog(page)).toBeHidden();
      await headerField(page).click();
      await expect(combobox(page)).toHaveValue('');
    });

    if (first) test('focus stays inside the dialog while it is open', async ({ page }) => {
      await open(page);
      for (let i = 0; i < 8; i++) {
        await page.keyboard.press('Tab');
        expect(await dialog(page).evaluate((d) => d.contains(document.activeElement))).toBe(true);
      }
      await page.keyboard.press('Shift+Tab');
      expect(await dialog(page).evaluate((d) => d.contains(document.activeElement))).toBe(true);
      await expect(page.getByRole('main')).toHaveAttribute('inert', '');
    });

    if (first) test('a click outside closes the overlay and resets its form and filters', async ({ page }) => {
      await open(page);
      await combobox(page).fill('blade');
      await dialog(page).getByRole('checkbox', { name: t(site.other) }).check();
      await expect(listbox(page)).toBeVisible();
      const viewport = page.viewportSize()!;
      await page.mouse.click(8, viewport.height - 8);
      await expect(dialog(page)).toBeHidden();
      await expect(page.getByRole('main')).not.toHaveAttribute('inert', '');
      await headerField(page).click();
      await expect(combobox(page)).toHaveValue('');
      await expect(dialog(page).getByRole('checkbox', { name: t(site.own) })).toBeChecked();
      await expect(dialog(page).getByRole('checkbox', { name: t(site.other) })).not.toBeChecked();
      await expect(listbox(page)).toBeHidden();
    });

    test('the language filter keeps at least one language and drives the request', async ({ page }) => {
      const requests = suggestRequests(page);
      await open(page);
      const own = dialog(page).getByRole('checkbox', { name: t(site.own) });
      const other = dialog(page).getByRole('checkbox', { name: t(site.other) });
      await expect(own).toBeChecked();
      await expect(other).not.toBeChecked();
      await combobox(page).fill('coracao');
      await expect.poll(() => requests.length).toBe(1);

      await own.uncheck();
      // Unchecking the last one checks the other instead.
      await expect(own).not.toBeChecked();
      await expect(other).toBeChecked();
      await expect.poll(() => requests.at(-1)?.searchParams.get(site.otherParam[0]!)).toBe(site.otherParam[1]);

      await own.check();
      await expect(own).toBeChecked();
      await expect(other).toBeChecked();
      await expect.poll(() => requests.at(-1)?.searchParams.get('show_all_sites')).toBe('true');
      await expect(listbox(page).getByRole('option', { name: /Coração de Aço/ })).toBeVisible();

      await other.uncheck();
      await own.uncheck();
      await expect(other).toBeChecked();
      await expect(own).not.toBeChecked();
    });

    test('says so when nothing matches, and when suggestions fail', async ({ page }) => {
      await open(page);
      await combobox(page).fill('qqzzxx');
      // Shown under the field (and describing it), and announced.
      await expect(combobox(page)).toHaveAccessibleDescription(t('search.noResults'));
      await expect(dialog(page).getByRole('status')).toHaveText(t('search.noResults'));

      await page.route('**/search/suggest/**', (route) => route.fulfill({ status: 500, body: 'boom' }));
      await combobox(page).fill('blade');
      await expect(combobox(page)).toHaveAccessibleDescription(t('search.error'));
      await expect(dialog(page).getByRole('status')).toHaveText(t('search.error'));
      await expect(listbox(page)).toBeHidden();
    });

    if (first) test('a slow answer for older text never replaces the answer for newer text', async ({ page }) => {
      await page.route('**/search/suggest/**', async (route) => {
        const q = new URL(route.request().url()).searchParams.get('q');
        if (q === 'bla') {
          await new Promise((r) => setTimeout(r, 1200));
          await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(['bla', ['Stale Answer'], [''], ['/comics/stale/'], [''], [[1, 3]]]) }).catch(() => {});
          return;
        }
        await route.continue();
      });
      await open(page);
      await combobox(page).pressSequentially('bla');
      await page.waitForTimeout(400);
      await combobox(page).pressSequentially('de');
      await expect(listbox(page).getByRole('option', { name: new RegExp(blade) })).toBeVisible();
      await page.waitForTimeout(1300);
      await expect(listbox(page).getByRole('option', { name: /Stale Answer/ })).toHaveCount(0);
    });
  });
}

test('without JavaScript the header search is a plain form to the listing', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(enUrl('/'));
  await page.getByRole('searchbox', { name: message('en', 'header.search.label') }).fill('blade');
  await page.getByRole('searchbox', { name: message('en', 'header.search.label') }).press('Enter');
  await expect(page).toHaveURL(enUrl('/comics/?q=blade'));
  await context.close();
});
