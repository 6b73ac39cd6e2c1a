import crypto from 'node:crypto';
import { DEMO } from '@db/seed/index';
import { accountButton, brUrl, expect, message, openAccountMenu, test } from './fixtures';

const terms = (locale: 'en' | 'pt-BR') => message(locale, 'auth.signup.termsRequired', { product: 'Inkpass' });

test.describe('accounts', () => {
  test('sign up (terms enforced), log out through the header dialog, log in again back to a series page', async ({ page }) => {
    const email = `e2e-${crypto.randomBytes(4).toString('hex')}@example.test`;
    const password = 'e2e-password-1';
    await page.goto('/auth/signup/');
    await page.getByLabel(message('en', 'auth.field.email')).fill(email);
    await page.getByLabel(message('en', 'auth.field.displayName')).fill('Eve Tester');
    await page.getByLabel(message('en', 'auth.field.password')).fill(password);
    await page.getByRole('button', { name: message('en', 'auth.signup.submit') }).click();
    // Blocked in the page: the warning shows and nothing was sent.
    await expect(page.getByText(terms('en'))).toBeVisible();
    await expect(page).toHaveURL(/\/auth\/signup\/$/);

    await page.getByRole('checkbox', { name: message('en', 'auth.signup.terms') }).check();
    await page.getByRole('button', { name: message('en', 'auth.signup.submit') }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator('.site-header')).toContainText('Eve Tester');

    // Log out (from the account menu) through the dialog loaded from GET /auth/logout/.
    const account = accountButton(page, 'en', 'Eve Tester');
    const logout = page.getByRole('button', { name: message('en', 'header.logout') });
    await account.click();
    await logout.click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: message('en', 'auth.logout.cancel') })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    // The dialog closed the menu: focus returns to the menu's button.
    await expect(account).toBeFocused();
    await expect(account).toHaveAttribute('aria-expanded', 'false');
    await account.click();
    await logout.click();
    await dialog.getByRole('button', { name: message('en', 'auth.logout.confirm') }).click();
    await expect(page.getByRole('link', { name: message('en', 'header.login'), exact: true })).toBeVisible();
    await expect(page.locator('.site-header')).not.toContainText('Eve Tester');

    // Log in from a series page: back on that page afterwards.
    const seriesPath = `/comics/${DEMO.readerComic}/`;
    await page.goto(seriesPath);
    await page.getByRole('link', { name: message('en', 'header.login'), exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/auth/login/\\?next=${encodeURIComponent(seriesPath).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    await page.getByLabel(message('en', 'auth.field.email')).fill(email);
    await page.getByLabel(message('en', 'auth.field.password')).fill(password);
    await page.getByRole('button', { name: message('en', 'auth.login.submit') }).click();
    await expect(page).toHaveURL(new RegExp(`${seriesPath}$`));
    await expect(page.locator('.site-header')).toContainText('Eve Tester');
    const data = await page.locator('#page-user-data').textContent();
    expect(JSON.parse(data!)).toMatchObject({ profile: { keys: 0, free_keys: 0 }, is_staff: false });
  });

  test('shows an alert when the logout prompt cannot load', async ({ page, reader }) => {
    // The header script (which opens the dialog) runs before DOMContentLoaded; clicking earlier
    // would follow the no-JavaScript link instead.
    await page.goto('/');
    await page.waitForLoadState('domcontentloaded');
    await page.route('**/auth/logout/', (route) => (route.request().method() === 'GET' ? route.abort() : route.continue()));
    // Dismiss the alert in the handler: an alert left open would block the click that opened it.
    let shown = '';
    page.once('dialog', (d) => {
      shown = d.message();
      void d.dismiss();
    });
    await openAccountMenu(page, 'en', reader.name);
    await page.getByRole('button', { name: message('en', 'header.logout') }).click();
    await expect.poll(() => shown).toBe(message('en', 'header.logout.error'));
  });

  test('the Portuguese site shows Portuguese labels and the Portuguese terms warning', async ({ page }) => {
    await page.goto(brUrl('/auth/signup/'));
    await expect(page.getByRole('heading', { level: 1, name: message('pt-BR', 'auth.signup.title') })).toBeVisible();
    await page.getByLabel(message('pt-BR', 'auth.field.email')).fill('pt@example.test');
    await page.getByLabel(message('pt-BR', 'auth.field.displayName')).fill('Bia');
    await page.getByLabel(message('pt-BR', 'auth.field.password')).fill('senha-boa-1');
    await page.getByRole('button', { name: message('pt-BR', 'auth.signup.submit') }).click();
    await expect(page.getByText(terms('pt-BR'))).toBeVisible();
    await page.goto(brUrl('/auth/login/'));
    await expect(page.getByRole('button', { name: message('pt-BR', 'auth.login.submit') })).toBeVisible();
    await expect(page.getByLabel(message('pt-BR', 'auth.field.password'))).toBeVisible();
  });
});
