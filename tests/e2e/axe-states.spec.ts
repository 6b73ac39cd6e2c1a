/**
 * axe-core in the states a reader reaches after loading a page (page-types.spec.ts and
 * phone-quality.spec.ts scan pages as they load): the listing with filters applied (as a list,
 * where the status chips show), a favorite just removed (greyed, with Undo), the unlock
 * dialog, the subscription checkout and the account menu open; a paid order's row offering the
 * withdrawal, its receipt, and the support desk's search, reader and payment pages (issue 28).
 * No serious or critical violation,
 * in the light theme (every rule) and the dark one (the contrast rule: it changes colours only),
 * on both sites, at 390 px.
 */
import type { Page } from '@playwright/test';
import { DEMO } from '@db/seed/index';
import { axeProblems, brUrl, buyByCard, enUrl, expect, message, openAccountMenu, signIn, staffMember, test } from './fixtures';

const SITES = [
  { name: 'en' as const, locale: 'en' as const, url: enUrl, plan: 'reader' },
  { name: 'br' as const, locale: 'pt-BR' as const, url: brUrl, plan: 'leitor' },
];

/** Both themes' scans of the page as it is now. */
async function scan(page: Page, label: string): Promise<string[]> {
  await page.emulateMedia({ colorScheme: 'light' });
  const light = await axeProblems(page, label, 'light');
  await page.emulateMedia({ colorScheme: 'dark' });
  const dark = await axeProblems(page, label, 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  return [...light, ...dark];
}

test.use({ viewport: { width: 390, height: 844 } });

for (const site of SITES) {
  const t = (key: string, values?: Record<string, string | number>) => message(site.locale, key, values);

  // The grid is the listing's default view, scanned as it loads by phone-quality.spec.ts.
  test(`the listing with filters applied, as a list with its status chips, passes axe (${site.name})`, async ({ page }) => {
    test.setTimeout(300_000);
    await page.goto(site.url('/comics/?filter=manga&order=name&view=list'));
    await expect(page.locator('.chip.sc-status-chip.is-complete').first()).toBeVisible();
    expect(await scan(page, `${site.name} listing, filtered, list`)).toEqual([]);
  });

  test(`a removed favorite, the unlock dialog, the subscription checkout and the account menu pass axe (${site.name})`, async ({ page, reader }) => {
    test.setTimeout(400_000);
    if (site.name === 'br') await signIn(page, 'br', reader);
    const problems: string[] = [];

    // A favorite just removed: greyed out, offering Undo.
    await page.goto(site.url(`/comics/${DEMO.readerManga}/`));
    await page.getByRole('button', { name: t('series.favorite'), exact: true }).click();
    await expect(page.getByRole('button', { name: t('series.favorited'), exact: true })).toHaveAttribute('aria-pressed', 'true');
    await page.goto(site.url('/my/favorites/'));
    const entry = page.locator('[data-favorite-entry]').first();
    await entry.getByRole('button', { name: t('favorites.remove') }).click();
    await expect(entry).toHaveClass(/is-removed/);
    await expect(entry.getByRole('button', { name: t('favorites.undo') })).toBeVisible();
    problems.push(...(await scan(page, `${site.name} favorites, one removed`)));

    // The unlock dialog of a paid chapter.
    await page.goto(site.url(`/comics/${DEMO.readerManga}/`));
    const unlock = page.getByRole('button', { name: new RegExp(`^${t('chapter.unlock')}\\s*:`) }).first();
    await unlock.click();
    await expect(page.getByRole('dialog')).toBeVisible();
    problems.push(...(await scan(page, `${site.name} unlock dialog`)));

    // The subscription checkout, open over the plans page.
    await page.goto(site.url(`/plans/?tier=${site.plan}`));
    await expect(page.getByRole('dialog')).toBeVisible();
    problems.push(...(await scan(page, `${site.name} subscription checkout`)));
    await page.keyboard.press('Escape');

    // The account menu.
    await page.goto(site.url('/'));
    await openAccountMenu(page, site.locale, reader.name);
    problems.push(...(await scan(page, `${site.name} account menu`)));

    expect(problems).toEqual([]);
  });

  test(`the purchases page offering a withdrawal, the receipt and the support desk's pages pass axe (${site.name})`, async ({ page, reader, browser }, info) => {
    test.setTimeout(300_000);
    if (site.name === 'br') await signIn(page, 'br', reader);
    const problems: string[] = [];
    await buyByCard(page, site.name, 'starter');
    const row = page.getByRole('main').getByRole('listitem').filter({ hasText: t('purchase.keysCount', { n: 50 }) });
    await expect(row.getByRole('button', { name: new RegExp(`^${t('purchases.withdraw.button', { amount: '\u0000' }).split('\u0000')[0]}`) })).toBeVisible();
    problems.push(...(await scan(page, `${site.name} purchases, withdrawal offered`)));
    const receipt = row.getByRole('link', { name: new RegExp(`^${t('receipts.linkLabel', { date: '\u0000' }).split('\u0000')[0]}`) });
    const orderId = /\/my\/purchases\/([a-z0-9]+)\/receipt\//.exec((await receipt.getAttribute('href')) ?? '')?.[1] ?? '';
    await receipt.click();
    await expect(page.getByRole('heading', { level: 1, name: t('receipts.title') })).toBeVisible();
    problems.push(...(await scan(page, `${site.name} receipt`)));

    // Support and money: the payment page shows the refund form.
    const member = await staffMember(browser, info, site.name, ['support', 'money']);
    try {
      const desk = member.page;
      await desk.setViewportSize({ width: 390, height: 844 });
      await desk.goto(site.url('/studio/readers/'));
      await expect(desk.getByRole('heading', { level: 1, name: t('desk.search.title') })).toBeVisible();
      problems.push(...(await scan(desk, `${site.name} desk search`)));
      await desk.goto(site.url(`/studio/readers/?q=${encodeURIComponent(reader.email)}`));
      await expect(desk.getByRole('heading', { level: 1, name: t('desk.reader.title', { email: reader.email }) })).toBeVisible();
      problems.push(...(await scan(desk, `${site.name} desk reader`)));
      await desk.goto(site.url(`/studio/payments/${orderId}/`));
      await expect(desk.getByLabel(t('desk.reason'), { exact: true })).toBeVisible();
      problems.push(...(await scan(desk, `${site.name} desk payment`)));
    } finally {
      await member.context.close();
    }
    expect(problems).toEqual([]);
  });
}
