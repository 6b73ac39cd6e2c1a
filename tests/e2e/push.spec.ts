/**
 * Web push in Chromium (issue 32), on both sites, through a local push-service stand-in.
 *
 * Headless Chromium cannot reach a real push service, so `PushManager.prototype.subscribe` is
 * replaced (addInitScript) by one that answers a subscription whose endpoint is this test's stand-in
 * (a node http server on a free port, which the e2e server accepts: PUSH_ENDPOINT_HOSTS=127.0.0.1)
 * and whose keys the test made (node:crypto ECDH P-256 and 16 random auth bytes). Everything else
 * is real: the notify button's script asks permission only when pressed (counted through an
 * exposed function; the permission is granted by the context), registers /sw.js, posts the
 * subscription; the reader turns quiet hours off on the settings page; a chapter is released and
 * fanned out with the clock a year ahead (as notifications.spec.ts does), its queued push is made
 * due now and the server's own push worker sends it, the stand-in receives the encrypted request, the test decrypts it with http_ece and hands the plaintext to
 * the real service worker with CDP's ServiceWorker.deliverPushMessage, and the worker's
 * notification is read back with registration.getNotifications().
 */
import crypto from 'node:crypto';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
// A series of its own (notifications.spec.ts notifies the manga): two specs releasing chapters of one
// series at once would fold into each other's readers' items.
import { DEMO } from '@db/seed/index';
import { brUrl, e2eDatabase, enUrl, expect, message, signIn, test } from './fixtures';

const ece = createRequire(import.meta.url)('http_ece') as { decrypt(buffer: Buffer, params: Record<string, unknown>): Buffer };

const SITES = [
  { site: 'en', locale: 'en', url: enUrl, zone: 'UTC' },
  { site: 'br', locale: 'pt-BR', url: brUrl, zone: 'America/Sao_Paulo' },
] as const;

for (const s of SITES) {
  test.describe(`web push (${s.site})`, () => {
    test.use({ timezoneId: s.zone });

    test(`receive a push in Chromium through a local push-service stand-in (${s.site})`, async ({ page, context, reader }) => {
      const got: { path: string; headers: http.IncomingHttpHeaders; body: Buffer }[] = [];
      const standIn = http.createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => { got.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) }); res.writeHead(201).end(); });
      });
      await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
      try {
        const endpoint = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}/push/${s.site}-${Date.now().toString(36)}`;
        const ecdh = crypto.createECDH('prime256v1');
        ecdh.generateKeys();
        const auth = crypto.randomBytes(16);
        const keys = { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') };

        let asked = 0;
        await page.exposeFunction('__pushPermissionAsked', () => { asked++; });
        await context.grantPermissions(['notifications'], { origin: new URL(s.url('/')).origin });
        await page.addInitScript(({ endpoint, keys }) => {
          const ask = Notification.requestPermission.bind(Notification);
          Notification.requestPermission = (...args: Parameters<typeof Notification.requestPermission>) => {
            (window as unknown as { __pushPermissionAsked(): void }).__pushPermissionAsked();
            return ask(...args);
          };
          const decode = (b: string) => Uint8Array.from(atob(b.replace(/-/g, '+').replace(/_/g, '/') + '=='.slice(0, (4 - (b.length % 4)) % 4)), (c) => c.charCodeAt(0)).buffer;
          // The browser keeps a subscription across pages: so does this stand-in (localStorage).
          const fake = () => ({
            endpoint, expirationTime: null, options: { userVisibleOnly: true, applicationServerKey: null },
            getKey: (name: 'p256dh' | 'auth') => decode(keys[name]),
            toJSON: () => ({ endpoint, expirationTime: null, keys }),
            unsubscribe: async () => { localStorage.removeItem('e2e-push-subscribed'); return true; },
          }) as unknown as PushSubscription;
          PushManager.prototype.subscribe = async function () {
            localStorage.setItem('e2e-push-subscribed', '1');
            return fake();
          };
          PushManager.prototype.getSubscription = async function () {
            return localStorage.getItem('e2e-push-subscribed') ? fake() : null;
          };
        }, { endpoint, keys });

        if (s.site === 'br') await signIn(page, 'br', reader);
        await page.goto(s.url(`/comics/${DEMO.readerComic}/`));
        const name = (await page.getByRole('heading', { level: 1 }).textContent())!.trim();
        // Nothing is asked on load.
        await page.waitForLoadState('networkidle');
        expect(asked).toBe(0);

        await page.getByRole('button', { name: message(s.locale, 'notify.off'), exact: true }).click();
        await expect(page.getByRole('button', { name: message(s.locale, 'notify.on'), exact: true })).toHaveAttribute('aria-pressed', 'true');
        expect(asked).toBe(1);
        const registered = await page.evaluate(async () => (await navigator.serviceWorker.getRegistration('/'))?.active?.scriptURL ?? null);
        expect(registered).toBe(new URL('/sw.js', s.url('/')).href);

        // The subscription was saved for this reader, in the browser's zone, and push is on for new chapters.
        const db = await e2eDatabase();
        const user = await db.selectFrom('users').select('id').where('email', '=', reader.email).executeTakeFirstOrThrow();
        const sub = await db.selectFrom('push_subscriptions').selectAll().where('endpoint', '=', endpoint).executeTakeFirstOrThrow();
        expect(Number(sub.user_id)).toBe(Number(user.id));
        expect(sub.time_zone).toBe(s.zone);

        // The server's own worker sends the push with the real clock: quiet hours off, so the hour of the run does not matter.
        await page.goto(s.url('/my/notifications/settings/'));
        await expect(page.getByText(message(s.locale, 'push.settings.on'), { exact: true })).toBeVisible();
        await page.getByRole('checkbox', { name: message(s.locale, 'push.quiet.enabled') }).uncheck();
        await page.getByRole('button', { name: message(s.locale, 'push.quiet.save'), exact: true }).click();
        await expect(page.getByRole('checkbox', { name: message(s.locale, 'push.quiet.enabled') })).not.toBeChecked();
        expect(asked).toBe(1);

        // A chapter comes out a year from now (the server's own fan-out never sees it).
        const { fanOutReleases } = await import('~/features/notifications/index.server');
        const series = await db.selectFrom('series').select(['id']).where('slug', '=', DEMO.readerComic).executeTakeFirstOrThrow();
        const language = (await db.selectFrom('series_languages').select('language').where('series_id', '=', series.id).where('site_id', '=', s.site === 'br' ? 3 : 1).executeTakeFirstOrThrow()).language;
        const source = await db.selectFrom('chapters').selectAll().where('series_id', '=', series.id).where('language', '=', language).limit(1).executeTakeFirstOrThrow();
        const at = Math.floor((Date.now() / 1000 + 365 * 86_400) / 86_400) * 86_400 + 15 * 3600 + Math.floor(Math.random() * 600);
        const number = 5000 + Math.floor(Math.random() * 4000);
        const { id: _id, ...copy } = source;
        const chapter = await db.insertInto('chapters')
          .values({ ...copy, e4pid: `EPI-push${at.toString(36)}${s.site}`, number, released_at: at, sale_at: at })
          .returning('id').executeTakeFirstOrThrow();
        try {
          await fanOutReleases(db, at - 60, at + 1);
        } finally {
          await db.deleteFrom('chapters').where('id', '=', chapter.id).execute();
        }
        // Its push was queued a year ahead too; made due now, the server's worker (every 5 s) sends it.
        const queued = await db.updateTable('push_outbox').set({ due_at: Math.floor(Date.now() / 1000) }).where('user_id', '=', user.id).executeTakeFirst();
        expect(Number(queued.numUpdatedRows)).toBe(1);
        await expect.poll(() => got.length, { timeout: 15_000 }).toBe(1);
        expect(got[0]!.headers['content-encoding']).toBe('aes128gcm');
        expect(String(got[0]!.headers.authorization)).toMatch(/^vapid t=[\w-]+\.[\w-]+\.[\w-]+, k=[\w-]+$/);
        const plaintext = ece.decrypt(got[0]!.body, { version: 'aes128gcm', privateKey: ecdh, authSecret: auth }).toString('utf8');
        const payload = JSON.parse(plaintext) as { title: string; body: string; url: string; tag: string };
        expect(payload.title).toBe(name);
        expect(payload.body).toBe(message(s.locale, 'push.chapter', { chapter: number }));

        // Hand the decrypted push to the page's real service worker, as the push service would.
        const cdp = await context.newCDPSession(page);
        const registrationId = new Promise<string>((resolve) => {
          cdp.on('ServiceWorker.workerRegistrationUpdated', (e: { registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] }) => {
            const r = e.registrations.find((x) => !x.isDeleted && x.scopeURL === new URL('/', s.url('/')).href);
            if (r) resolve(r.registrationId);
          });
        });
        await cdp.send('ServiceWorker.enable');
        await cdp.send('ServiceWorker.deliverPushMessage', { origin: new URL(s.url('/')).origin, registrationId: await registrationId, data: plaintext });
        await expect.poll(() => page.evaluate(async () => {
          const reg = await navigator.serviceWorker.getRegistration('/');
          return (await reg!.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag }));
        }), { timeout: 10_000 }).toEqual([{ title: name, body: message(s.locale, 'push.chapter', { chapter: number }), tag: payload.tag }]);

        // The settings page: stop push on this device (the server forgets it), then ticking a push box subscribes it again.
        await page.goto(s.url('/my/notifications/settings/'));
        await page.getByRole('button', { name: message(s.locale, 'push.settings.unsubscribe'), exact: true }).click();
        await expect(page.getByText(message(s.locale, 'push.settings.off'), { exact: true })).toBeVisible();
        await expect.poll(async () => (await db.selectFrom('push_subscriptions').select('id').where('endpoint', '=', endpoint).execute()).length).toBe(0);
        const box = page.getByRole('checkbox', { name: message(s.locale, 'notifications.settings.box', { name: message(s.locale, 'notifications.category.money'), method: message(s.locale, 'notifications.channel.push') }) });
        await box.check();
        await expect(page.getByText(message(s.locale, 'push.settings.on'), { exact: true })).toBeVisible();
        await expect(box).toBeChecked();
        expect(asked).toBe(2);
        await expect.poll(async () => (await db.selectFrom('push_subscriptions').select('id').where('endpoint', '=', endpoint).execute()).length).toBe(1);
      } finally {
        await new Promise<void>((resolve) => standIn.close(() => resolve()));
      }
    });
  });
}

const IPHONE_SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

for (const s of SITES) {
  test.describe(`web push on iPhone Safari outside the Home Screen (${s.site})`, () => {
    test.use({ userAgent: IPHONE_SAFARI });

    test(`notify me asks nothing and says to add the site to the Home Screen (${s.site})`, async ({ page, reader }) => {
      let asked = 0;
      await page.exposeFunction('__pushPermissionAsked', () => { asked++; });
      await page.addInitScript(() => {
        const ask = Notification.requestPermission.bind(Notification);
        Notification.requestPermission = (...args: Parameters<typeof Notification.requestPermission>) => {
          (window as unknown as { __pushPermissionAsked(): void }).__pushPermissionAsked();
          return ask(...args);
        };
      });
      if (s.site === 'br') await signIn(page, 'br', reader);
      await page.goto(s.url(`/comics/${DEMO.readerComic}/`));
      const note = page.getByText(message(s.locale, 'push.ios'), { exact: true });
      await expect(note).toBeHidden();
      await page.getByRole('button', { name: message(s.locale, 'notify.off'), exact: true }).click();
      await expect(page.getByRole('button', { name: message(s.locale, 'notify.on'), exact: true })).toHaveAttribute('aria-pressed', 'true');
      await expect(note).toBeVisible();
      expect(asked).toBe(0);
      expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration('/')) ?? null)).toBeNull();
      // The settings page says the same in place of the device's push button.
      await page.goto(s.url('/my/notifications/settings/'));
      await expect(page.getByText(message(s.locale, 'push.ios'), { exact: true })).toBeVisible();
      await expect(page.getByRole('button', { name: message(s.locale, 'push.settings.subscribe'), exact: true })).toBeHidden();
      expect(asked).toBe(0);
    });
  });
}
