/**
 * The release schedule and the Brazilian daily calendar as a reader uses them: TODAY / HOJE on
 * the second day, day tabs with the keyboard, days re-computed in the reader's own time zone,
 * the page without JavaScript, and the calendar's collapsible days. Words from i18n/*.json.
 */
import type { Page } from '@playwright/test';
import { zoneLabel } from '~/lib/dates';
import { brUrl, enUrl, expect, message, revealHomeBlocks, test } from './fixtures';

const days = (page: Page, locale: 'en' | 'pt-BR') => page.getByRole('tablist', { name: message(locale, 'schedule.days') }).getByRole('tab');
const dateIn = (timeZone: string, locale: string, offsetDays = 0) =>
  new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone }).format(new Date(Date.now() + offsetDays * 86_400_000));

for (const [site, locale, url] of [['English', 'en', enUrl], ['Portuguese', 'pt-BR', brUrl]] as const) {
  test(`the ${site} schedule labels the second of seven days ${message(locale, 'schedule.today')} and opens on it`, async ({ page }) => {
    await page.goto(url('/schedule/'));
    await expect(page.getByRole('heading', { level: 1, name: message(locale, 'schedule.title') })).toBeVisible();
    const tabs = days(page, locale);
    await expect(tabs).toHaveCount(7);
    const today = message(locale, 'schedule.today');
    await expect(tabs.nth(1)).toContainText(today);
    await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'true');
    for (const n of [0, 2, 3, 4, 5, 6]) await expect(tabs.nth(n)).not.toContainText(today);
    // The English site follows the browser's zone (the test machine's); the Portuguese one keeps Brasília time (Site.scheduleZone).
    const zone = locale === 'en' ? await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone) : 'America/Sao_Paulo';
    await expect(tabs.nth(1)).toContainText(dateIn(zone, locale));
    await expect(tabs.nth(0)).toContainText(dateIn(zone, locale, -1));
    const panel = page.getByRole('tabpanel');
    await expect(panel).toHaveCount(1);
    await expect(panel.getByRole('heading', { level: 3 })).toContainText(today);
    await expect(page.getByRole('heading', { level: 2, name: message(locale, 'schedule.months') })).toBeVisible();
  });
}

for (const [site, locale, url] of [['English', 'en', enUrl], ['Portuguese', 'pt-BR', brUrl]] as const) {
  for (const width of [390, 1280]) {
    test(`the ${site} home shows two weeks and three closed months of the schedule, short enough at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(url('/'));
      // The schedule is one of the home page's later blocks: it arrives as the reader nears it.
      await revealHomeBlocks(page, 'schedule');
      const block = page.getByRole('region', { name: message(locale, 'schedule.heading') });
      const weeks = block.getByRole('list', { name: new RegExp(`^(${message(locale, 'schedule.home.thisWeek')}|${message(locale, 'schedule.home.nextWeek')})$`) });
      await expect(weeks).toHaveCount(2);
      for (const n of [0, 1]) await expect(weeks.nth(n).getByRole('listitem')).toHaveCount(7);
      // Today is marked once, and each day says how many releases it has.
      const today = block.locator('a[aria-current="date"]');
      await expect(today).toHaveCount(1);
      await expect(today).toHaveAccessibleName(new RegExp(`^${message(locale, 'schedule.today')}, `));
      for (const name of await weeks.getByRole('link').evaluateAll((links) => links.map((l) => l.querySelector('.visually-hidden')?.textContent ?? ''))) {
        const count = Number(/(\d+)/.exec(name.split(':').pop()!)?.[1] ?? 0);
        expect(name).toContain(message(locale, 'schedule.home.dayCount', { count }));
      }
      // Three months, closed; one opens in place with its releases.
      const months = block.locator('details');
      await expect(months).toHaveCount(3);
      await expect(block.locator('details[open]')).toHaveCount(0);
      const height = (await block.boundingBox())!.height;
      expect(height, 'schedule block height').toBeLessThan(1000);
      const month = months.first();
      await month.locator('summary').click();
      await expect(month).toHaveAttribute('open', '');
      const releases = month.locator('[data-release-item]');
      const summary = await month.locator('.sp-month-count').innerText();
      if (/\d/.test(summary)) await expect(releases.first()).toBeVisible();
    });
  }
}

test('day tabs work with the keyboard: arrows, Home and End move the selection and the panel', async ({ page }) => {
  await page.goto(enUrl('/schedule/'));
  const tabs = days(page, 'en');
  await tabs.nth(1).focus();
  await page.keyboard.press('ArrowRight');
  await expect(tabs.nth(2)).toBeFocused();
  await expect(tabs.nth(2)).toHaveAttribute('aria-selected', 'true');
  await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'false');
  await expect(tabs.nth(1)).toHaveAttribute('tabindex', '-1');
  const panelId = await tabs.nth(2).getAttribute('aria-controls');
  await expect(page.locator(`[id="${panelId}"]`)).toBeVisible();
  await expect(page.getByRole('tabpanel')).toHaveCount(1);
  await page.keyboard.press('End');
  await expect(tabs.nth(6)).toBeFocused();
  await expect(tabs.nth(6)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowRight');
  await expect(tabs.nth(0)).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(tabs.nth(6)).toBeFocused();
  await page.keyboard.press('Home');
  await expect(tabs.nth(0)).toHaveAttribute('aria-selected', 'true');
  // Tab leaves the tablist for the selected panel.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('tabpanel')).toBeFocused();
  // A click selects too.
  await tabs.nth(3).click();
  await expect(tabs.nth(3)).toHaveAttribute('aria-selected', 'true');
});

test.describe('in a reader time zone far from the site', () => {
  test.use({ timezoneId: 'Pacific/Kiritimati' });
  test('days are re-computed in the reader zone: TODAY is still second and shows the local date', async ({ page }) => {
    await page.goto(enUrl('/schedule/'));
    const tabs = days(page, 'en');
    await expect(tabs.nth(1)).toContainText(message('en', 'schedule.today'));
    await expect(tabs.nth(1)).toContainText(dateIn('Pacific/Kiritimati', 'en'));
    // Every entry of a day panel falls on that day in the reader's zone.
    const panelIds = await tabs.evaluateAll((els) => els.map((e) => e.getAttribute('aria-controls')));
    for (const [i, id] of panelIds.entries()) {
      const times = await page.locator(`[id="${id}"] [data-at]`).evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.at)));
      const expected = dateIn('Pacific/Kiritimati', 'en', i - 1);
      for (const at of times) expect(new Intl.DateTimeFormat('en', { day: 'numeric', month: 'short', timeZone: 'Pacific/Kiritimati' }).format(new Date(at * 1000))).toBe(expected);
    }
  });
});

test.describe('in a reader time zone on another date than the site', () => {
  // A zone whose date differs from UTC's (the English site's) at this hour: entries move between days.
  const zone = new Date().getUTCHours() < 10 ? 'Pacific/Pago_Pago' : 'Pacific/Kiritimati';
  test.use({ timezoneId: zone, viewport: { width: 390, height: 844 } });
  test('the page does not jump while the days are laid out again, and the schedule shows once they are', async ({ page }) => {
    await page.addInitScript(() => {
      (window as unknown as { shifts: number }).shifts = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as (PerformanceEntry & { value: number })[]) (window as unknown as { shifts: number }).shifts += e.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto(enUrl('/schedule/'));
    await expect(days(page, 'en').nth(1)).toContainText(dateIn(zone, 'en'));
    await expect(page.locator('[data-schedule]')).toBeVisible();
    await expect(page.locator('[data-schedule]')).not.toHaveClass(/is-relayout/);
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as unknown as { shifts: number }).shifts)).toBeLessThan(0.01);
  });
});

test.describe('the Portuguese site in a browser on New York time', () => {
  test.use({ timezoneId: 'America/New_York' });
  test('/schedule/ and /calendario/ show the same days and clock times, in Brasília time, and both say so', async ({ page }) => {
    // The zone's name as the server writes it ("Horário Padrão de Brasília").
    const note = message('pt-BR', 'schedule.timeZone', { zone: zoneLabel('America/Sao_Paulo', 'pt-BR') });
    const clocks = async () => {
      const rows = await page.locator('[data-release-item]:has([data-clock])').evaluateAll((els) => els.map((e) => [(e as HTMLElement).dataset.at!, e.querySelector('[data-clock]')?.textContent ?? ''] as const));
      return new Map(rows);
    };
    await page.goto(brUrl('/schedule/'));
    await expect(page.locator('[data-schedule]')).toHaveClass(/is-tabs/);
    await expect(page.locator('[data-schedule] [data-zone-note]')).toHaveText(note);
    // TODAY is São Paulo's date, not New York's.
    await expect(days(page, 'pt-BR').nth(1)).toContainText(dateIn('America/Sao_Paulo', 'pt-BR'));
    const onSchedule = await clocks();
    await page.goto(brUrl('/calendario/'));
    await expect(page.locator('[data-zone-note]')).toHaveText(note);
    const onCalendar = await clocks();
    const shared = [...onCalendar.keys()].filter((at) => onSchedule.has(at));
    expect(shared.length, 'releases on both pages').toBeGreaterThan(0);
    for (const at of shared) {
      const brasilia = new Intl.DateTimeFormat('pt-BR', { hour: 'numeric', minute: '2-digit', timeZone: 'America/Sao_Paulo' }).format(new Date(Number(at) * 1000));
      expect([onSchedule.get(at), onCalendar.get(at)], `release at ${at}`).toEqual([brasilia, brasilia]);
    }
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  test('the schedule shows today and every other day through its day link', async ({ page }) => {
    await page.goto(brUrl('/schedule/'));
    const nav = page.getByRole('navigation', { name: message('pt-BR', 'schedule.days') });
    await expect(nav.getByRole('link')).toHaveCount(7);
    await expect(nav.getByRole('link').nth(1)).toContainText(message('pt-BR', 'schedule.today'));
    const panels = page.locator('section[data-panel]');
    await expect(panels).toHaveCount(7);
    // One day at a time from the first paint, as with the script (every day shown, then folded, moved the page).
    await expect(panels.nth(1)).toBeVisible();
    await expect(panels.nth(3)).toBeHidden();
    const href = await nav.getByRole('link').nth(3).getAttribute('href');
    await nav.getByRole('link').nth(3).click();
    await expect(page).toHaveURL(new RegExp(`${href}$`));
    await expect(panels.nth(3)).toBeVisible();
    await expect(panels.nth(1)).toBeHidden();
  });
});

test('the Portuguese daily calendar opens today and its days collapse and expand', async ({ page }) => {
  await page.goto(brUrl('/calendario/'));
  await expect(page.getByRole('heading', { level: 1, name: message('pt-BR', 'calendar.title') })).toBeVisible();
  const today = page.locator('details').filter({ has: page.locator('summary', { hasText: message('pt-BR', 'schedule.today') }) });
  await expect(today).toHaveCount(1);
  await expect(today).toHaveAttribute('open', '');
  // The day's content: its list of releases, or the "nothing scheduled" line on an empty day.
  const content = today.locator(':scope > ul, :scope > p').first();
  await expect(content).toBeVisible();
  await today.locator('summary').click();
  await expect(today).not.toHaveAttribute('open', '');
  await expect(content).toBeHidden();
  // The keyboard opens it again.
  await today.locator('summary').focus();
  await page.keyboard.press('Enter');
  await expect(today).toHaveAttribute('open', '');
  // A closed day opens on click.
  const tomorrow = page.locator('details').nth(2);
  await expect(tomorrow).not.toHaveAttribute('open', '');
  await tomorrow.locator('summary').click();
  await expect(tomorrow).toHaveAttribute('open', '');
  // Promotions are a carousel region.
  await expect(page.getByRole('heading', { level: 2, name: message('pt-BR', 'calendar.campaigns') })).toBeVisible();
});

test('the English /calendario/ leads to the schedule', async ({ page }) => {
  await page.goto(enUrl('/calendario/'));
  await expect(page).toHaveURL(/\/schedule\/$/);
  await expect(page.getByRole('heading', { level: 1, name: message('en', 'schedule.title') })).toBeVisible();
});

test.describe('promotion slides on the calendar', () => {
  // Every slide, shown or not (getByRole skips hidden ones).
  const slides = (page: Page) => page.locator('[aria-roledescription="slide"]');

  test('advance every 5 s, pause while hovered, and move with previous / next', async ({ page }) => {
    await page.clock.install();
    await page.goto(brUrl('/calendario/'));
    const carousel = page.locator('[aria-roledescription="carousel"]');
    const total = await slides(page).count();
    expect(total, 'the demo runs at least two promotions on the Portuguese site').toBeGreaterThanOrEqual(2);
    const label = (n: number) => message('pt-BR', 'calendar.slide', { n, total });
    await expect(page.getByRole('group', { name: label(1) })).toBeVisible();
    await page.clock.runFor(5_100);
    await expect(page.getByRole('group', { name: label(2) })).toBeVisible();
    await expect(page.getByRole('group', { name: label(1) })).toBeHidden();
    await carousel.hover();
    await page.clock.runFor(12_000);
    await expect(page.getByRole('group', { name: label(2) })).toBeVisible();
    await page.getByRole('button', { name: message('pt-BR', 'calendar.prev') }).click();
    await expect(page.getByRole('group', { name: label(1) })).toBeVisible();
    await page.getByRole('button', { name: message('pt-BR', 'calendar.next') }).click();
    await expect(page.getByRole('group', { name: label(2) })).toBeVisible();
  });

  test('never advance on their own when the reader prefers reduced motion', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.clock.install();
    await page.goto(brUrl('/calendario/'));
    const total = await slides(page).count();
    await page.clock.runFor(20_000);
    await expect(page.getByRole('group', { name: message('pt-BR', 'calendar.slide', { n: 1, total }) })).toBeVisible();
    await expect(page.getByRole('button', { name: message('pt-BR', 'calendar.play') })).toHaveAttribute('aria-pressed', 'true');
  });
});
