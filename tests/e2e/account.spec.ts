/**
 * The account, as a reader uses it on both sites (docs/accounts.md): a forgotten password end to
 * end through the demo outbox (the login page's link, the form, the message, its link, the new
 * password), changing the email with the new address's confirmation, and signing out every other
 * device from /my/account/.
 */
import { brUrl, enUrl, expect, message, openAccountMenu, signIn, test } from './fixtures';

const SITES = [
  { site: 'en', locale: 'en', url: enUrl },
  { site: 'br', locale: 'pt-BR', url: brUrl },
] as const;

for (const s of SITES) {
  test(`${s.site}: a forgotten password, reset through the demo outbox`, async ({ browser, reader }) => {
    // A visitor who is not signed in (a fresh context: the fixture's page holds the reader's session).
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(s.url('/auth/login/'));
    const main = page.getByRole('main');
    await main.getByRole('link', { name: message(s.locale, 'auth.login.forgot') }).click();
    await expect(page).toHaveURL(/\/auth\/password\/forgot\/$/);
    await main.getByLabel(message(s.locale, 'auth.field.email')).fill(reader.email);
    await main.getByRole('button', { name: message(s.locale, 'auth.forgot.submit') }).click();
    await expect(main.getByRole('status')).toHaveText(message(s.locale, 'auth.forgot.sent'));

    // The demo keeps the message: open it from the outbox's list.
    await page.goto(s.url('/dev/outbox/'));
    const row = main.getByRole('row').filter({ hasText: reader.email }).first();
    await row.getByRole('link', { name: new RegExp(message(s.locale, 'mail.reset.subject')) }).click();
    const text = await main.locator('pre').innerText();
    expect(text).toContain(message(s.locale, 'mail.reset.ignore'));
    const link = /https?:\/\/\S+\/auth\/password\/reset\/[A-Za-z0-9_-]{43}\//.exec(text)?.[0];
    expect(link, 'the message carries the reset link').toBeTruthy();

    await page.goto(link!);
    await main.getByLabel(message(s.locale, 'auth.reset.newPassword'), { exact: true }).fill('a-fresh-password-7');
    await main.getByRole('button', { name: message(s.locale, 'auth.reset.submit') }).click();
    await expect(page).toHaveURL(/\/my\/account\/\?done=reset$/);
    await expect(main.getByRole('status')).toHaveText(message(s.locale, 'account.done.reset'));

    // The link is used up; the old password no longer works, the new one does.
    await page.goto(link!);
    await expect(main.getByRole('alert')).toHaveText(message(s.locale, 'auth.reset.expired'));
    const fresh = await browser.newContext();
    const other = await fresh.newPage();
    await signIn(other, s.site, { email: reader.email, password: 'a-fresh-password-7' });
    await fresh.close();
    await context.close();
  });

  test(`${s.site}: sign out every other device from the account page`, async ({ page, browser, reader }) => {
    // A second device signed in.
    const phoneContext = await browser.newContext();
    const phone = await phoneContext.newPage();
    await signIn(phone, s.site, reader);
    if (s.site === 'br') await signIn(page, 'br', reader);

    // The header's account menu leads to the account page.
    await page.goto(s.url('/'));
    await openAccountMenu(page, s.locale, reader.name);
    await page.getByRole('banner').getByRole('link', { name: message(s.locale, 'header.menu.account') }).click();
    await expect(page).toHaveURL(/\/my\/account\/$/);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1 })).toHaveText(message(s.locale, 'account.title'));
    await expect(main.getByText(message(s.locale, 'account.sessions.current'))).toBeVisible();

    await main.getByRole('button', { name: message(s.locale, 'account.sessions.signOutOthers') }).click();
    await expect(main.getByRole('status')).toHaveText(message(s.locale, 'account.done.others'));
    await expect(main.getByRole('button', { name: message(s.locale, 'account.sessions.signOutOthers') })).toHaveCount(0);

    // The other device is signed out; this one is not.
    await phone.goto(s.url('/my/account/'));
    await expect(phone).toHaveURL(/\/auth\/login\//);
    await page.reload();
    await expect(main.getByRole('heading', { level: 1 })).toHaveText(message(s.locale, 'account.title'));
    await phoneContext.close();
  });

  test(`${s.site}: change the email, confirmed from the new address`, async ({ page, browser, reader }) => {
    if (s.site === 'br') await signIn(page, 'br', reader);
    const next = `moved-${Date.now().toString(36)}-${s.site}@example.test`;
    await page.goto(s.url('/my/account/'));
    const main = page.getByRole('main');
    await main.getByLabel(message(s.locale, 'account.email.new')).fill(next);
    await main.getByRole('region', { name: message(s.locale, 'account.email.title') }).getByLabel(message(s.locale, 'account.password.current')).fill(reader.password);
    await main.getByRole('button', { name: message(s.locale, 'account.email.submit') }).click();
    await expect(main.getByRole('status')).toHaveText(message(s.locale, 'account.done.emailSent'));
    await expect(main.getByText(message(s.locale, 'account.signedInAs', { email: reader.email }))).toBeVisible();

    // The old address is told; the new one gets the link.
    await page.goto(s.url('/dev/outbox/'));
    await expect(main.getByRole('row').filter({ hasText: reader.email }).filter({ hasText: message(s.locale, 'mail.emailNotice.subject') })).toHaveCount(1);
    await main.getByRole('row').filter({ hasText: next }).getByRole('link').click();
    const link = /https?:\/\/\S+\/auth\/email\/confirm\/[A-Za-z0-9_-]{43}\//.exec(await main.locator('pre').innerText())?.[0];
    expect(link, 'the message carries the confirmation link').toBeTruthy();
    await page.goto(link!);
    await main.getByRole('button', { name: message(s.locale, 'auth.emailConfirm.submit') }).click();
    await expect(page).toHaveURL(/\/my\/account\/\?done=email$/);
    await expect(main.getByRole('status')).toHaveText(message(s.locale, 'account.done.email'));
    await expect(main.getByText(message(s.locale, 'account.signedInAs', { email: next }))).toBeVisible();

    // The new address logs in.
    const fresh = await browser.newContext();
    await signIn(await fresh.newPage(), s.site, { email: next, password: reader.password });
    await fresh.close();
  });
}
