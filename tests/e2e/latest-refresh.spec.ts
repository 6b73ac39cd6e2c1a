/**
 * The home page's 10-minute content refresh: the browser asks the relay about the series in the
 * latest-updates list and offers a reload when they have newer chapters; a failed check is silent.
 * The relay's own answers are covered by tests/integration/relay.test.ts; here the answer is
 * scripted so the page's reaction can be seen without waiting for a real release.
 */
import { brUrl, expect, message, test } from './fixtures';

const TEN_MINUTES = 10 * 60_000;

for (const site of ['en', 'br'] as const) {
  test(`announces new chapters of the listed series after ten minutes (${site})`, async ({ page }) => {
    // Ten minutes of the page's timers (every carousel's 5 s slides) run in fake time: heavy on a busy 2-core machine.
    test.slow();
    const asked: string[] = [];
    await page.route('**/relay/consumer/**', async (route) => {
      const url = new URL(route.request().url());
      asked.push(url.pathname + url.search);
      const after = Number(url.searchParams.get('after'));
      const released = new Date((after + 120) * 1000).toISOString();
      await route.fulfill({ json: { status: 'ok', data: { episodes: [{ serie: { id: 1 }, items: [{ released_at: released }, { released_at: new Date(after * 1000).toISOString() }], latest: null }] } } });
    });
    await page.clock.install();
    await page.goto(site === 'br' ? brUrl('/') : '/');
    // Latest updates arrives as a fragment right after the page; its check starts with it.
    await expect(page.locator('[data-latest-refresh]')).toBeAttached();
    const status = page.locator('[data-latest-refresh]');
    await expect(status).toHaveAttribute('role', 'status');
    await expect(status).toBeEmpty();
    // The installed clock also moves with real time while the page loads: a minute of slack.
    await page.clock.runFor(TEN_MINUTES - 60_000);
    expect(asked).toEqual([]);
    await page.clock.runFor(61_000);
    const locale = site === 'br' ? 'pt-BR' : 'en';
    await expect(status).toContainText(await message(locale, 'home.latestNews', { count: 1 }));
    const reload = status.getByRole('link', { name: await message(locale, 'home.latestReload') });
    await expect(reload).toBeVisible();
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/^\/relay\/consumer\/inkpass\/series\/[\d,]+\/updates\?clientid=inkpass-web&after=\d+$/);
    await reload.click();
    await expect(page).toHaveURL(site === 'br' ? brUrl('/') : '/');
    await expect(page.locator('[data-latest-refresh]')).toBeEmpty();
  });
}

test('a failing or empty relay check stays silent and is tried again', async ({ page }) => {
  let calls = 0;
  await page.route('**/relay/consumer/**', async (route) => {
    calls++;
    if (calls === 1) await route.fulfill({ status: 500, json: { detail: 'boom' } });
    else await route.fulfill({ json: { status: 'ok', data: { episodes: [] } } });
  });
  await page.clock.install();
  await page.goto('/');
  await expect(page.locator('[data-latest-refresh]')).toBeAttached();
  await page.clock.runFor(TEN_MINUTES + 1000);
  await expect.poll(() => calls).toBe(1);
  await expect(page.locator('[data-latest-refresh]')).toBeEmpty();
  await page.clock.runFor(TEN_MINUTES);
  await expect.poll(() => calls).toBe(2);
  await expect(page.locator('[data-latest-refresh]')).toBeEmpty();
  await expect(page.locator('[role="alert"]')).toHaveCount(0);
});
