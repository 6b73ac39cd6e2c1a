/**
 * Navigation and small widgets (issue 30, spec sections 2 and 9), on both sites (the back/forward
 * cache has its own file, bfcache.spec.ts):
 * - a locked chapter's reader view links to its paywall page, reached by the reader's own clicks;
 * - a tooltip opens by keyboard (focus, Enter) and by touch (a tap), and Escape closes it.
 */
import { brUrl, enUrl, expect, message, signIn, test } from './fixtures';

const SERIES = '/comics/heir-of-the-frozen-throne/';

for (const site of ['en', 'br'] as const) {
  const locale = site === 'br' ? 'pt-BR' : 'en';
  const url = site === 'br' ? brUrl : enUrl;
  const m = (key: string, values?: Record<string, string | number>) => message(locale, key, values);

  test(`${site}: a locked chapter's reader view leads to its paywall page`, async ({ page }) => {
    await page.goto(url(SERIES));
    // A paid row (signed out it offers "log in to read"): its chapter link opens the locked reader view.
    const paidRow = page.locator('li', { has: page.locator('a.login-to-read') }).first();
    const chapter = (await paidRow.locator('.chapter-name').textContent())!.trim();
    await paidRow.locator('a.chapter-main').click();
    await page.getByRole('link', { name: m('paywall.link') }).click();
    await expect(page).toHaveURL(/\/paywall\/$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(chapter);
    await expect(page.getByRole('main')).toContainText(m('paywall.ways'));
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  });

  test(`${site}: the keys tooltip opens by keyboard and closes with Escape`, async ({ page, reader }) => {
    if (site === 'br') await signIn(page, 'br', reader);
    await page.goto(url('/my/keys/'));
    const button = page.getByRole('button', { name: m('tip.keys.label') });
    const tip = page.getByRole('tooltip').filter({ hasText: m('tip.keys.text') });
    await expect(tip).toBeHidden();
    // The text is the button's description, so a screen reader hears it without opening anything.
    await expect(button).toHaveAccessibleDescription(m('tip.keys.text'));
    // Tab until the button has focus, as a keyboard user would.
    for (let i = 0; i < 60 && !(await button.evaluate((b) => b === document.activeElement)); i++) await page.keyboard.press('Tab');
    await expect(button).toBeFocused();
    await expect(tip).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(tip).toBeHidden();
    await page.keyboard.press('Enter');
    await expect(tip).toBeVisible();
    const box = (await tip.boundingBox())!;
    const viewport = page.viewportSize()!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
  });
}

test.describe('touch', () => {
  test.use({ hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } });
  for (const site of ['en', 'br'] as const) {
    const locale = site === 'br' ? 'pt-BR' : 'en';
    const url = site === 'br' ? brUrl : enUrl;
    const m = (key: string) => message(locale, key);
    test(`${site} at 390 px: the bonus tooltip opens with a tap and closes with a tap elsewhere`, async ({ page, reader }) => {
      if (site === 'br') await signIn(page, 'br', reader);
      await page.goto(url('/my/keys/'));
      const tip = page.getByRole('tooltip').filter({ hasText: m('tip.bonus.text') });
      await expect(tip).toBeHidden();
      await page.getByRole('button', { name: m('tip.bonus.label') }).tap();
      await expect(tip).toBeVisible();
      const box = (await tip.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      await page.getByRole('heading', { level: 1 }).tap();
      await expect(tip).toBeHidden();
    });
  }
});

