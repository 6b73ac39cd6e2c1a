/**
 * The welcome for new readers (issue 26; docs/decisions.md, "A welcome for new readers"): a
 * server configured with WELCOME_XTRA_KEYS_EN=4 and WELCOME_XTRA_KEYS_BR=7 credits that many
 * Xtra keys through the ledger at sign-up, by the site signed up on, once per account whatever
 * the retries or the concurrent sign-ups; the sign-up page says so; the shared test servers
 * (configured with 0) give nothing and say nothing. The ledger audit passes after every test.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createReader, message, selectedDialects, startExtraServer, useServer, withDb, type ServerClient, type ServerHandle } from './harness';

for (const dialect of selectedDialects()) {
  describe(`the welcome for new readers (${dialect})`, () => {
    const base = useServer(dialect);
    let welcoming: ServerHandle;

    const balances = (id: number) =>
      withDb(base, async (db) => (await import('~/features/wallet/index.server')).balancesOf(db, id));
    const welcomes = (id: number) =>
      withDb(base, (db) => db.selectFrom('ledger_transactions').select(['idempotency_key', 'kind']).where('user_id', '=', id).where('kind', '=', 'welcome').execute());
    const audit = () => withDb(base, async (db) => (await import('~/features/wallet/index.server')).auditLedger(db));
    const signupPage = (s: ServerClient, site: 'en' | 'br') => s.request('/auth/signup/', { site });

    beforeAll(async () => {
      welcoming = await startExtraServer(base, { WELCOME_XTRA_KEYS_EN: '4', WELCOME_XTRA_KEYS_BR: '7' });
    }, 120_000);
    afterAll(async () => {
      await welcoming?.stop();
    });
    afterEach(async () => {
      expect(await audit()).toEqual([]);
    });

    it('credits the configured Xtra keys of the site signed up on, as one welcome line of the ledger', async () => {
      const en = await createReader(welcoming, { site: 'en' });
      expect(await balances(en.id)).toEqual({ keys: 0, xtra: 4 });
      expect(await welcomes(en.id)).toEqual([{ idempotency_key: `welcome:${en.id}`, kind: 'welcome' }]);
      const br = await createReader(welcoming, { site: 'br' });
      expect(await balances(br.id)).toEqual({ keys: 0, xtra: 7 });

      // The reader sees it: the header's balance and the key history's line.
      const keys = await welcoming.request('/my/keys/', { site: 'br', headers: { cookie: br.cookie } });
      expect(keys.status).toBe(200);
      expect(keys.text).toContain(message('pt-BR', 'keys.what.welcome'));
    });

    it('says so on the sign-up page, per site', async () => {
      expect((await signupPage(welcoming, 'en')).text).toContain(message('en', 'auth.signup.welcome', { n: 4 }));
      expect((await signupPage(welcoming, 'br')).text).toContain(message('pt-BR', 'auth.signup.welcome', { n: 7 }));
      // 0 configured: nothing given, nothing said.
      const page = await signupPage(base, 'en');
      const anyCount = new RegExp(message('en', 'auth.signup.welcome', { n: 99 }).replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('99', '\\d+'));
      expect(page.status).toBe(200);
      expect(page.text).not.toMatch(anyCount);
      expect((await signupPage(welcoming, 'en')).text).toMatch(anyCount);
      const plain = await createReader(base, { site: 'en' });
      expect(await balances(plain.id)).toEqual({ keys: 0, xtra: 0 });
      expect(await welcomes(plain.id)).toEqual([]);
    });

    it('gives one welcome per account: the same sign-up sent many times at once, and the grant retried at once', async () => {
      const email = `twice-${Date.now()}-${Math.random().toString(16).slice(2)}@example.test`;
      await withDb(base, (db) => db.deleteFrom('rate_limits').where('bucket', 'like', 'signup:%').execute());
      const form = new URLSearchParams({ email, display_name: 'Twice', password: 'correct-horse-9', terms: '1' }).toString();
      const answers = await Promise.all(Array.from({ length: 8 }, () => welcoming.request('/auth/signup/', {
        method: 'POST', body: form,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: welcoming.origin(), 'sec-fetch-site': 'same-origin' },
      })));
      expect(answers.filter((a) => a.status === 303)).toHaveLength(1);
      expect(answers.every((a) => a.status < 500)).toBe(true);
      const user = await withDb(base, (db) => db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow());
      const id = Number(user.id);
      expect(await balances(id)).toEqual({ keys: 0, xtra: 4 });

      // A retry of the grant (the same ledger key), ten at once, credits nothing more.
      const retried = await withDb(base, async (db) => {
        const { grantKeys } = await import('~/features/wallet/index.server');
        const now = Math.floor(Date.now() / 1000);
        return Promise.all(Array.from({ length: 10 }, () => grantKeys(db, { userId: id, keys: 0, xtra: 4, reason: 'welcome', key: `welcome:${id}`, now, kind: 'welcome' })));
      });
      expect(retried.filter((r) => r.created)).toHaveLength(0);
      expect(await balances(id)).toEqual({ keys: 0, xtra: 4 });
      expect(await welcomes(id)).toHaveLength(1);
      await withDb(base, (db) => db.deleteFrom('rate_limits').where('bucket', 'like', 'signup:%').execute());
    });
  });
}
