/**
 * A reader's own data, as a reader uses it on both sites (docs/privacy.md): from /my/account/,
 * download the data (a JSON file with their email in it), then delete the account — the keys
 * left are shown first, a wrong password is refused, the password and the box delete it — after
 * which signing in fails with the usual message and the ledger audit still passes. A fresh
 * reader each time (never the shared demo reader).
 */
import fs from 'node:fs/promises';
import { axeProblems, brUrl, e2eDatabase, enUrl, expect, grantKeys, message, signIn, test } from './fixtures';

const SITES = [
  { site: 'en', locale: 'en', url: enUrl },
  { site: 'br', locale: 'pt-BR', url: brUrl },
] as const;

for (const s of SITES) {
  const t = (key: string, values?: Record<string, string | number>) => message(s.locale, key, values);

  test(`${s.site}: download my data, then delete the account; signing in fails and the ledger stays whole`, async ({ page, browser, reader }) => {
    test.setTimeout(120_000);
    if (s.site === 'br') await signIn(page, 'br', reader);
    await grantKeys(reader.email, 4, 2);
    const main = page.getByRole('main');

    // The export: a plain link on the account page, a JSON download with the reader's own email.
    await page.goto(s.url('/my/account/'));
    const [download] = await Promise.all([page.waitForEvent('download'), main.getByRole('link', { name: t('account.data.export') }).click()]);
    expect(download.suggestedFilename()).toMatch(/^inkpass-export-\d{4}-\d{2}-\d{2}\.json$/);
    const data = JSON.parse(await fs.readFile((await download.path())!, 'utf8')) as { profile: { email: string; display_name: string }; balances: { keys: number; bonus_keys: number } };
    expect(data.profile).toMatchObject({ email: reader.email, display_name: reader.name });
    expect(data.balances.keys).toBe(4);

    // The deletion page: the keys left (paid and bonus), what is lost and kept.
    await main.getByRole('link', { name: t('account.delete.link') }).click();
    await expect(page).toHaveURL(/\/my\/account\/delete\/$/);
    await expect(main.getByRole('heading', { level: 1 })).toHaveText(t('account.delete.title'));
    await expect(main.getByText(t('account.delete.keysLeft', { keys: 4, xtra: data.balances.bonus_keys }))).toBeVisible();
    await expect(main.getByText(t('account.delete.kept'))).toBeVisible();

    // A wrong password deletes nothing and says so.
    await main.getByLabel(t('account.password.current')).fill('not-my-password');
    await main.getByLabel(t('account.delete.confirm')).check();
    await main.getByRole('button', { name: t('account.delete.submit') }).click();
    await expect(main.getByRole('alert')).toHaveText(t('account.delete.wrongPassword'));
    expect(await axeProblems(page, `${s.site} account deletion, wrong password`, 'light')).toEqual([]);

    // The password and the box: deleted, signed out, told so.
    await main.getByLabel(t('account.password.current')).fill(reader.password);
    await main.getByLabel(t('account.delete.confirm')).check();
    await main.getByRole('button', { name: t('account.delete.submit') }).click();
    await expect(page).toHaveURL(/\/my\/account\/delete\/\?done=1$/);
    await expect(main.getByRole('heading', { level: 1 })).toHaveText(t('account.delete.doneTitle'));
    await expect(main.getByRole('status')).toHaveText(t('account.delete.doneBody'));
    await expect(page.getByRole('banner').getByRole('link', { name: message(s.locale, 'header.login') })).toBeVisible();
    expect(await axeProblems(page, `${s.site} account deleted`, 'light')).toEqual([]);

    // Signing in with the old email and password fails with the usual message.
    const context = await browser.newContext();
    const visitor = await context.newPage();
    await visitor.goto(s.url('/auth/login/'));
    const form = visitor.getByRole('main');
    await form.getByLabel(t('auth.field.email')).fill(reader.email);
    await form.getByLabel(t('auth.field.password')).fill(reader.password);
    await form.getByRole('button', { name: t('auth.login.submit') }).click();
    await expect(form.getByRole('alert')).toHaveText(t('auth.login.invalid'));
    await context.close();

    // The money records stay whole: the ledger audit passes over the whole database.
    const { auditLedger } = await import('~/features/wallet/index.server');
    expect(await auditLedger(await e2eDatabase())).toEqual([]);
  });
}
