/**
 * From buying to reading, and intents across login (issue 26), over real HTTP on both databases:
 * the checkout sends the reader back to the page they came from with the order (`?paid=`), whose
 * receipt moment only that reader sees, for a paid order only; the unlock intent survives the way
 * there and back; the anonymous star's login link carries the favorite intent, which the login
 * and sign-up forms finish (and only they: a cross-origin post, or an intent pointing off the
 * site, finish nothing and go nowhere else). docs/wallet.md, "From buying to reading".
 */
import { describe, expect, it } from 'vitest';
import { APP_CHECK_FIELD, APP_CHECK_HEADER } from '~/lib/app-check';
import { anySeries, appCheckToken, createReader, htmlText, message, selectedDialects, useServer, withDb, type Reader, type SiteName } from './harness';

const SERIES = '/comics/heir-of-the-frozen-throne/';
const EXPIRY = `12/${String((new Date().getUTCFullYear() + 4) % 100).padStart(2, '0')}`;
const rk = () => `rk${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
const receiptText = (html: string) => {
  const m = /<div class="notice purchase-receipt[^"]*"[^>]*data-purchase-receipt[^>]*>([\s\S]*?)<\/div>/.exec(html);
  return m ? htmlText(m[1]!).replace(/\s+/g, ' ').trim() : null;
};

for (const dialect of selectedDialects()) {
  describe(`from buying to reading, intents across login (${dialect})`, () => {
    const server = useServer(dialect);

    const form = (path: string, fields: Record<string, string>, o: { reader?: Reader | null; site?: SiteName; origin?: string } = {}) =>
      server.request(path, {
        site: o.site, method: 'POST', body: new URLSearchParams(fields).toString(), timeoutMs: 60_000,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: o.origin ?? server.origin(o.site), ...(o.reader ? { cookie: o.reader.cookie } : {}) },
      });
    const page = (path: string, reader: Reader | null, site: SiteName = 'en') => server.request(path, { site, headers: reader ? { cookie: reader.cookie } : {} });
    /** The first paid chapter's unlock button on the series page, for a signed-in reader. */
    const paidChapter = async (reader: Reader) => {
      const html = (await page(SERIES, reader)).text;
      const e4pid = /<button class="btn-unlock" name="content" value="(EPI-[\w-]+)"/.exec(html)?.[1];
      expect(e4pid).toBeTruthy();
      return e4pid!;
    };
    const buyByCard = async (reader: Reader, next: string) => {
      const nonce = await form('/payments/sandbox/nonce/', { method: 'card', number: '4111111111111111', expiry: EXPIRY, cvv: '123' }, { reader });
      expect(nonce.status, nonce.text).toBe(200);
      const token = await appCheckToken(server, reader);
      return form('/my/purchase/checkout/', { pack: 'popular', method: 'card', nonce: nonce.json().nonce, request_key: rk(), next, [APP_CHECK_FIELD]: token }, { reader });
    };
    const favorited = (reader: Reader, seriesId: number) =>
      withDb(server, async (db) => (await db.selectFrom('favorites').select('series_id').where('user_id', '=', reader.id).where('series_id', '=', seriesId).execute()).length === 1);

    it('the checkout comes back to the page with its unlock intent and the order; the receipt shows what was credited and the balance, to that reader only', async () => {
      const reader = await createReader(server);
      const chapter = await paidChapter(reader);
      const next = `${SERIES}?intent=${encodeURIComponent(`unlock:${chapter}`)}`;
      const paid = await buyByCard(reader, next);
      expect(paid.status, paid.text.slice(0, 300)).toBe(303);
      const location = new URL(paid.headers.location!, server.origin());
      expect(location.pathname).toBe(SERIES);
      expect(location.searchParams.get('intent')).toBe(`unlock:${chapter}`);
      const orderId = location.searchParams.get('paid')!;
      expect(orderId).toMatch(/^[\w-]+$/);

      const back = await page(location.pathname + location.search, reader);
      expect(back.status).toBe(200);
      const en = (key: string, values?: Record<string, number>) => message('en', key, values);
      expect(receiptText(back.text)).toBe(`${en('receipt.title')} ${en('receipt.credited', { keys: 100, xtra: 10 })} ${en('receipt.balance', { keys: 100, xtra: 10 })} ${en('receipt.order')}`);
      expect(back.text).toContain(`data-purchase-receipt="${en('receipt.title')} ${en('receipt.credited', { keys: 100, xtra: 10 })}"`);
      expect(back.text).toContain(`href="/my/purchases/#order-${orderId}"`);
      // The link finds the order on the purchases page.
      expect((await page('/my/purchases/', reader)).text).toContain(`id="order-${orderId}"`);
      // The chapter's unlock button is there for the dialog to reopen.
      expect(back.text).toContain(`value="${chapter}"`);

      // Anyone else, signed out, or with a made-up or malformed order: no receipt, and never a 500.
      const other = await createReader(server);
      for (const [who, path] of [[other, `${SERIES}?paid=${orderId}`], [null, `${SERIES}?paid=${orderId}`], [reader, `${SERIES}?paid=ord000000000000000000000000`],
        [reader, `${SERIES}?paid=%3Cscript%3E`], [reader, `${SERIES}?paid=${'a'.repeat(300)}`], [reader, `${SERIES}?paid=${orderId}&paid=x`]] as const) {
        const res = await page(path, who);
        expect(res.status, path).toBe(200);
        if (!path.endsWith('&paid=x')) expect(receiptText(res.text), `${who ? 'a reader' : 'anonymous'} ${path}`).toBeNull();
      }
    });

    it('without a next, the checkout lands on the reader\'s keys with the receipt', async () => {
      const reader = await createReader(server);
      const paid = await buyByCard(reader, '');
      expect(paid.status).toBe(303);
      const location = paid.headers.location!;
      expect(location).toMatch(/^\/my\/keys\/\?paid=[\w-]+$/);
      const keys = await page(location, reader);
      expect(receiptText(keys.text)).toContain(message('en', 'receipt.balance', { keys: 100, xtra: 10 }));
    });

    it('a pending order shows no receipt', async () => {
      const reader = await createReader(server, { site: 'br' });
      const charge = await server.request('/my/purchase/pix/', {
        site: 'br', method: 'POST', body: new URLSearchParams({ pack: 'popular', request_key: rk() }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin('br'), cookie: reader.cookie, [APP_CHECK_HEADER]: await appCheckToken(server, reader, 'br') },
      });
      expect(charge.status, charge.text).toBe(200);
      const id = charge.json().checkout.correlationID as string;
      const res = await page(`${SERIES}?paid=${id}`, reader, 'br');
      expect(res.status).toBe(200);
      expect(receiptText(res.text)).toBeNull();
    });

    it('signed out, each paid row\'s login link and the star\'s carry their intent back', async () => {
      const res = await page(SERIES, null);
      const logins = [...res.text.matchAll(/<a class="login-to-read" href="([^"]+)"/g)].map((m) => new URL(m[1]!.replace(/&amp;/g, '&'), server.origin()).searchParams.get('next')!);
      expect(logins.length).toBeGreaterThan(1);
      for (const next of logins) expect(new URL(next, server.origin()).searchParams.get('intent'), next).toMatch(/^unlock:EPI-[\w-]+$/);
      expect(new Set(logins).size).toBe(logins.length);
      const [s] = (await anySeries(server, 1));
      const star = new RegExp(`href="(/auth/login/\\?next=[^"]*)"[^>]*rel="nofollow"`).exec((await page(`/comics/${s!.slug}/`, null)).text)?.[1];
      const starNext = new URL(star!.replace(/&amp;/g, '&'), server.origin()).searchParams.get('next')!;
      expect(starNext).toBe(`/comics/${s!.slug}/?intent=${encodeURIComponent(`favorite:${s!.e4pid}`)}#fav-${s!.e4pid}`);
      // The login page says what the form will also do.
      const login = await page(`/auth/login/?next=${encodeURIComponent(starNext)}`, null);
      expect(htmlText(login.text)).toContain(message('en', 'auth.intent.favorite'));
      const unlockLogin = await page(`/auth/login/?next=${encodeURIComponent(logins[0]!)}`, null, 'br');
      expect(htmlText(unlockLogin.text)).toContain(message('pt-BR', 'auth.intent.unlock'));
    });

    it('logging in or signing up finishes the favorite and lands on the page without the intent; a cross-origin post or an off-site next does not', async () => {
      const [s] = await anySeries(server, 1);
      const next = `/comics/${s!.slug}/?intent=${encodeURIComponent(`favorite:${s!.e4pid}`)}#fav-${s!.e4pid}`;
      const reader = await createReader(server);

      // Another site's form: refused before anything happens.
      const forged = await form('/auth/login/', { email: reader.email, password: reader.password, next }, { origin: 'http://evil.example' });
      expect(forged.status).toBe(403);
      expect(await favorited(reader, s!.id)).toBe(false);
      // A link alone (the page, signed in) favorites nothing.
      await page(next.split('#')[0]!, reader);
      await page(`/auth/login/?next=${encodeURIComponent(next)}`, reader);
      expect(await favorited(reader, s!.id)).toBe(false);

      const login = await form('/auth/login/', { email: reader.email, password: reader.password, next });
      expect(login.status).toBe(303);
      expect(login.headers.location).toBe(`/comics/${s!.slug}/#fav-${s!.e4pid}`);
      expect(await favorited(reader, s!.id)).toBe(true);

      // Sign-up, on the Portuguese site, the intent in the query as the login page passes it on.
      const email = `reader-${Date.now().toString(36)}@example.test`;
      await withDb(server, (db) => db.deleteFrom('rate_limits').where('bucket', 'like', 'signup:ip:%').execute());
      const signup = await form(`/auth/signup/?next=${encodeURIComponent(next)}`, { email, display_name: 'R', password: 'correct-horse-9', terms: '1' }, { site: 'br' });
      expect(signup.status).toBe(303);
      expect(signup.headers.location).toBe(`/comics/${s!.slug}/#fav-${s!.e4pid}`);
      const id = await withDb(server, async (db) => Number((await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id));
      expect(await favorited({ id } as Reader, s!.id)).toBe(true);

      // An intent on an off-site next: the reader lands home, and nothing is favorited.
      const other = await createReader(server);
      for (const evil of [`//evil.example/?intent=favorite%3A${s!.e4pid}`, `/%2e%2e//evil.example/?intent=favorite%3A${s!.e4pid}`, `https://evil.example/?intent=favorite%3A${s!.e4pid}`]) {
        const res = await form('/auth/login/', { email: other.email, password: other.password, next: evil });
        expect([res.status, res.headers.location], evil).toEqual([303, '/']);
      }
      expect(await favorited(other, s!.id)).toBe(false);
      // An unlock intent is left for the page, which reopens the dialog (nothing is spent).
      const unlockNext = `${SERIES}?intent=unlock%3AEPI-abc`;
      const res = await form('/auth/login/', { email: other.email, password: other.password, next: unlockNext });
      expect([res.status, res.headers.location]).toEqual([303, unlockNext]);
      // A malformed intent is ignored: no 500, the reader lands on next.
      const junk = await form('/auth/login/', { email: other.email, password: other.password, next: `${SERIES}?intent=favorite%3A%3Cx%3E` });
      expect([junk.status, junk.headers.location]).toEqual([303, `${SERIES}?intent=favorite%3A%3Cx%3E`]);
    });

    it('the signed-out no-JavaScript star, posted after the session ended, carries the intent to the login page', async () => {
      const [s] = await anySeries(server, 1);
      const res = await form('/my/favorites/toggle/', { series: s!.e4pid, favorite: '1', next: `/comics/${s!.slug}/#fav-${s!.e4pid}` });
      expect(res.status).toBe(303);
      const next = new URL(res.headers.location!, server.origin()).searchParams.get('next');
      expect(next).toBe(`/comics/${s!.slug}/?intent=${encodeURIComponent(`favorite:${s!.e4pid}`)}#fav-${s!.e4pid}`);
    });
  });
}
