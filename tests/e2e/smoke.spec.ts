import { brUrl, expect, isPageView, message, test } from './fixtures';

test.describe('home page', () => {
  test('opens in English on localhost', async ({ page }) => {
    const res = await page.goto('/');
    expect(res?.status()).toBe(200);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('button', { name: message('en', 'header.theme.toggle') })).toBeVisible();
  });

  test('opens in Portuguese on br.localhost', async ({ page }) => {
    const res = await page.goto(brUrl('/'));
    expect(res?.status()).toBe(200);
    await expect(page.locator('html')).toHaveAttribute('lang', 'pt-BR');
    await expect(page.getByRole('button', { name: message('pt-BR', 'header.theme.toggle') })).toBeVisible();
  });

  test('pushes a page_view event to the data layer', async ({ page }) => {
    await page.goto('/');
    // Entries may be plain objects or gtag-style `arguments`; copy them to plain values.
    const layer = () => page.evaluate(() => ((window as unknown as { dataLayer?: unknown[] }).dataLayer ?? []).map((e) =>
      e && typeof e === 'object' && 'length' in (e as object) ? { ...Array.from(e as ArrayLike<unknown>) } : e));
    await expect.poll(async () => (await layer()).some(isPageView), { message: 'window.dataLayer has a page_view' }).toBe(true);
  });
});

test.describe('theme', () => {
  test('the toggle switches data-theme on <html> and the choice survives a reload', async ({ page }) => {
    await page.goto('/');
    const html = page.locator('html');
    const toggle = page.getByRole('button', { name: message('en', 'header.theme.toggle') });
    const before = await html.getAttribute('data-theme');

    await toggle.click();
    await expect.poll(() => html.getAttribute('data-theme')).not.toBe(before);
    const chosen = await html.getAttribute('data-theme');
    expect(chosen).toBeTruthy();

    await page.reload();
    await expect(html).toHaveAttribute('data-theme', chosen!);

    // And back again.
    await page.getByRole('button', { name: message('en', 'header.theme.toggle') }).click();
    await expect.poll(() => html.getAttribute('data-theme')).not.toBe(chosen);
  });

  test('works the same on the Portuguese site', async ({ page }) => {
    await page.goto(brUrl('/'));
    const html = page.locator('html');
    const before = await html.getAttribute('data-theme');
    await page.getByRole('button', { name: message('pt-BR', 'header.theme.toggle') }).click();
    await expect.poll(() => html.getAttribute('data-theme')).not.toBe(before);
    const chosen = await html.getAttribute('data-theme');
    await page.reload();
    await expect(html).toHaveAttribute('data-theme', chosen!);
    await expect(html).toHaveAttribute('lang', 'pt-BR');
  });
});
