import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_CHECK_DEFAULT_DIFFICULTY, DEMO_SELLER, DEMO_WELCOME_XTRA_KEYS, isLoopback, localOrigin, METRICS_TOKEN_MIN_LENGTH, readConfig, startupRefusals, TURNSTILE_VERIFY_URL } from './config.mjs';

describe('configuration', () => {
  it('has safe local defaults', () => {
    const c = readConfig({});
    expect(c.databaseUrl).toBe('file:./data/inkpass.db');
    expect(c.dataDir).toBe(path.resolve('./data'));
    expect(c.secret).toBeNull();
    expect(c.countryHeader).toBeNull();
    expect(c.trustProxy).toBe(false);
    expect(c.port).toBe(4321);
    expect(c.warmup).toBe(true);
    expect(c.pgPoolMax).toBe(10);
    expect(c.bodyTimeoutMs).toBe(10_000);
    expect(c.releaseCheckSeconds).toBe(60);
    expect(c.workers).toBe(os.availableParallelism());
    expect(c.payments).toMatchObject({ card: 'sandbox', braintree: null, pix: 'sandbox', openpix: null, pixExpiresSeconds: 900 });
  });

  it('is a demo on loopback by default, with the sandboxes; production offers no provider until one is set', () => {
    const demo = readConfig({});
    expect(demo).toMatchObject({ mode: 'demo', modeSet: false, host: '127.0.0.1', payments: { card: 'sandbox', pix: 'sandbox' } });
    expect(startupRefusals(demo)).toEqual([]);
    const prod = readConfig({ INKPASS_MODE: 'production' });
    expect(prod).toMatchObject({ mode: 'production', modeSet: true, host: '0.0.0.0', payments: { card: 'none', pix: 'none' } });
    expect(startupRefusals(prod)).toEqual([]);
    expect(readConfig({ INKPASS_MODE: 'Production ' }).mode).toBe('production');
    expect(() => readConfig({ INKPASS_MODE: 'live' })).toThrow(/INKPASS_MODE must be demo or production/);
  });

  it('refuses what production must not run with, one line naming each setting', () => {
    const refusals = (env: Record<string, string>) => startupRefusals(readConfig(env));
    expect(refusals({ HOST: '0.0.0.0' })).toEqual([expect.stringMatching(/^INKPASS_MODE is not set and HOST=0\.0\.0\.0/)]);
    expect(refusals({ HOST: '0.0.0.0', INKPASS_MODE: 'demo' })).toEqual([]);
    expect(refusals({ HOST: '::1' })).toEqual([]);
    const prod = { INKPASS_MODE: 'production' };
    expect(refusals({ ...prod, PAYMENTS_CARD: 'sandbox' })).toEqual([expect.stringMatching(/^PAYMENTS_CARD=sandbox/)]);
    expect(refusals({ ...prod, PAYMENTS_PIX: 'sandbox' })).toEqual([expect.stringMatching(/^PAYMENTS_PIX=sandbox/)]);
    expect(refusals({ ...prod, DATABASE_URL: 'postgres://x@h/db' })).toEqual([expect.stringMatching(/^INKPASS_SECRET is not set/)]);
    expect(refusals({ ...prod, DATABASE_URL: 'postgres://x@h/db', INKPASS_SECRET: 's'.repeat(40) })).toEqual([]);
    const braintree = { PAYMENTS_CARD: 'braintree', BRAINTREE_MERCHANT_ID: 'm', BRAINTREE_PUBLIC_KEY: 'p', BRAINTREE_PRIVATE_KEY: 'k' };
    expect(refusals({ ...prod, ...braintree })).toEqual([expect.stringMatching(/^BRAINTREE_ENVIRONMENT=sandbox/)]);
    expect(refusals({ ...prod, ...braintree, BRAINTREE_ENVIRONMENT: 'production' })).toEqual([]);
    expect(refusals({ ...prod, PAYMENTS_PIX: 'openpix', OPENPIX_APP_ID: 'a', OPENPIX_BASE_URL: 'https://api.woovi-sandbox.com' })).toEqual([expect.stringMatching(/^OPENPIX_BASE_URL=.*test PSP/)]);
  });

  it.each([['127.0.0.1', true], ['127.8.9.10', true], ['localhost', true], ['::1', true], ['[::1]', true], ['0.0.0.0', false], ['::', false], ['10.0.0.5', false], ['inkpass.example', false]])('%s is loopback: %s', (host, loopback) => {
    expect(isLoopback(host)).toBe(loopback);
  });

  it('reads the payment providers and their keys', () => {
    const c = readConfig({
      PAYMENTS_CARD: 'braintree', BRAINTREE_ENVIRONMENT: 'production', BRAINTREE_MERCHANT_ID: 'm', BRAINTREE_PUBLIC_KEY: 'p', BRAINTREE_PRIVATE_KEY: 'k', BRAINTREE_MERCHANT_ACCOUNT_BRL: 'acc_brl',
      PAYMENTS_PIX: 'openpix', OPENPIX_APP_ID: 'app', OPENPIX_WEBHOOK_SECRET: 'hook', PIX_EXPIRES_SECONDS: '600',
    });
    expect(c.payments.braintree).toEqual({ environment: 'production', merchantId: 'm', publicKey: 'p', privateKey: 'k', merchantAccounts: { BRL: 'acc_brl' } });
    expect(c.payments.openpix).toEqual({ baseUrl: 'https://api.woovi.com', appId: 'app', webhookPublicKey: null, webhookSecret: 'hook' });
    expect(c.payments.pixExpiresSeconds).toBe(600);
    const local = readConfig({ PAYMENTS_CARD: 'braintree', BRAINTREE_ENVIRONMENT: 'http://127.0.0.1:9999', BRAINTREE_MERCHANT_ID: 'm', BRAINTREE_PUBLIC_KEY: 'p', BRAINTREE_PRIVATE_KEY: 'k' });
    expect(local.payments.braintree?.environment).toEqual({ host: '127.0.0.1', port: 9999, ssl: false });
  });

  it('checks bots before money calls in production, and in a demo only when asked', () => {
    expect(readConfig({}).appCheck).toEqual({ enforced: false, setting: null, provider: 'altcha', difficulty: APP_CHECK_DEFAULT_DIFFICULTY, debug: false, turnstile: null });
    expect(readConfig({ APP_CHECK: 'on' }).appCheck.enforced).toBe(true);
    expect(readConfig({ APP_CHECK: 'OFF' }).appCheck).toMatchObject({ enforced: false, setting: 'off' });
    expect(readConfig({ INKPASS_MODE: 'production' }).appCheck.enforced).toBe(true);
    expect(readConfig({ APP_CHECK: 'on', APP_CHECK_DIFFICULTY: '4', APP_CHECK_DEBUG: '1' }).appCheck).toMatchObject({ difficulty: 4, debug: true });
    expect(readConfig({ TURNSTILE_SITE_KEY: '0x4AAA-site', TURNSTILE_SECRET_KEY: '0x4AAA-secret' }).appCheck).toMatchObject({
      provider: 'turnstile', turnstile: { siteKey: '0x4AAA-site', secretKey: '0x4AAA-secret', verifyUrl: TURNSTILE_VERIFY_URL },
    });
    expect(readConfig({ TURNSTILE_SITE_KEY: 's', TURNSTILE_SECRET_KEY: 'k', TURNSTILE_VERIFY_URL: 'http://127.0.0.1:9/verify' }).appCheck.turnstile?.verifyUrl).toBe('http://127.0.0.1:9/verify');
  });

  it('refuses to start a shop without the bot check', () => {
    const production = { INKPASS_MODE: 'production', INKPASS_SECRET: 's'.repeat(40) };
    expect(startupRefusals(readConfig(production))).toEqual([]);
    expect(startupRefusals(readConfig({ ...production, APP_CHECK: 'off' }))).toEqual([expect.stringMatching(/^APP_CHECK=off .* production always needs/)]);
    expect(startupRefusals(readConfig({ APP_CHECK: 'off' }))).toEqual([]);
  });

  it('reads every setting', () => {
    const c = readConfig({
      DATABASE_URL: 'postgres://x@h/db', INKPASS_SECRET: 's'.repeat(40), COUNTRY_HEADER: 'CF-IPCountry', TRUST_PROXY: '1',
      PORT: '8080', HOST: '127.0.0.1', WARMUP: '0', PG_POOL_MAX: '4', BODY_TIMEOUT_MS: '2000', SITE_HOSTS: 'inkpass.example, br.inkpass.example',
      RELEASE_CHECK_SECONDS: '5',
    });
    expect(c).toMatchObject({ databaseUrl: 'postgres://x@h/db', countryHeader: 'cf-ipcountry', trustProxy: true, port: 8080, host: '127.0.0.1', warmup: false, pgPoolMax: 4, bodyTimeoutMs: 2000, releaseCheckSeconds: 5 });
    expect(c.siteHosts).toEqual(['inkpass.example', 'br.inkpass.example']);
    expect(c.cookieDomain).toBeNull();
  });

  it('keeps media on the disk unless MEDIA_STORE names a bucket, read with its S3 settings', () => {
    expect(readConfig({}).mediaStore).toEqual({ kind: 'disk' });
    expect(readConfig({ MEDIA_STORE: 'disk' }).mediaStore).toEqual({ kind: 'disk' });
    expect(readConfig({ MEDIA_STORE: 's3://inkpass-media' }).mediaStore).toEqual({ kind: 's3', bucket: 'inkpass-media', prefix: '', endpoint: null, region: 'us-east-1', accessKeyId: null, secretAccessKey: null, forcePathStyle: false });
    expect(readConfig({ MEDIA_STORE: 's3://inkpass.media/prod/media/', S3_ENDPOINT: 'http://127.0.0.1:9000/', S3_REGION: 'eu-west-1', S3_ACCESS_KEY_ID: 'AK', S3_SECRET_ACCESS_KEY: 'SK', S3_FORCE_PATH_STYLE: '1' }).mediaStore)
      .toEqual({ kind: 's3', bucket: 'inkpass.media', prefix: 'prod/media', endpoint: 'http://127.0.0.1:9000', region: 'eu-west-1', accessKeyId: 'AK', secretAccessKey: 'SK', forcePathStyle: true });
  });

  it('reads a cookie domain both sites belong to (a leading dot and capitals are forgiven)', () => {
    expect(readConfig({ COOKIE_DOMAIN: '.Inkpass.Example', SITE_HOSTS: 'inkpass.example,br.inkpass.example' }).cookieDomain).toBe('inkpass.example');
    expect(readConfig({ COOKIE_DOMAIN: 'example.com', SITE_HOSTS: 'comics.example.com,br.comics.example.com' }).cookieDomain).toBe('example.com');
    expect(readConfig({ COOKIE_DOMAIN: 'inkpass.example' }).cookieDomain).toBe('inkpass.example');
  });

  it.each([
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ MEDIA_SECRET: 'old' }, /INKPASS_SECRET instead/],
    [{ INKPASS_SECRET: 'short' }, /at least 32/],
    [{ COUNTRY_HEADER: 'bad header' }, /COUNTRY_HEADER/],
    [{ TRUST_PROXY: 'yes' }, /TRUST_PROXY must be 1 or 0/],
    [{ PORT: '70000' }, /PORT/],
    [{ PG_POOL_MAX: '-1' }, /PG_POOL_MAX/],
    [{ BODY_TIMEOUT_MS: '10' }, /BODY_TIMEOUT_MS/],
    [{ SITE_HOSTS: 'a b' }, /SITE_HOSTS/],
    [{ RELEASE_CHECK_SECONDS: '0' }, /RELEASE_CHECK_SECONDS/],
    [{ WORKERS: '0' }, /WORKERS must be a whole number from 1 to 256/],
    [{ WORKERS: 'auto' }, /WORKERS/],
    [{ WORKERS: '1.5' }, /WORKERS/],
    [{ COOKIE_DOMAIN: 'https://inkpass.example/' }, /COOKIE_DOMAIN must be a domain name/],
    [{ COOKIE_DOMAIN: 'inkpass.example:443' }, /COOKIE_DOMAIN must be a domain name/],
    [{ COOKIE_DOMAIN: 'example' }, /COOKIE_DOMAIN must be a domain name/],
    [{ COOKIE_DOMAIN: '10.0.0.1' }, /not an IP address/],
    [{ COOKIE_DOMAIN: 'localhost' }, /never share cookies between localhost and br.localhost/],
    [{ COOKIE_DOMAIN: 'inkpass.localhost' }, /localhost/],
    [{ COOKIE_DOMAIN: 'other.example', SITE_HOSTS: 'inkpass.example,br.inkpass.example' }, /inkpass.example is not in it/],
    [{ COOKIE_DOMAIN: 'br.inkpass.example', SITE_HOSTS: 'inkpass.example,br.inkpass.example' }, /inkpass.example is not in it/],
    [{ PAYMENTS_CARD: 'stripe' }, /PAYMENTS_CARD/],
    [{ PAYMENTS_CARD: 'braintree' }, /BRAINTREE_MERCHANT_ID is required/],
    [{ PAYMENTS_CARD: 'braintree', BRAINTREE_ENVIRONMENT: 'ftp://x', BRAINTREE_MERCHANT_ID: 'm', BRAINTREE_PUBLIC_KEY: 'p', BRAINTREE_PRIVATE_KEY: 'k' }, /BRAINTREE_ENVIRONMENT/],
    [{ PAYMENTS_PIX: 'openpix' }, /OPENPIX_APP_ID is required/],
    [{ PIX_EXPIRES_SECONDS: '5' }, /PIX_EXPIRES_SECONDS/],
    [{ APP_CHECK: 'yes' }, /APP_CHECK must be on or off/],
    [{ APP_CHECK_DIFFICULTY: '0' }, /APP_CHECK_DIFFICULTY must be a whole number from 1/],
    [{ APP_CHECK_DIFFICULTY: 'easy' }, /APP_CHECK_DIFFICULTY/],
    [{ APP_CHECK_DEBUG: 'true' }, /APP_CHECK_DEBUG must be 1 or 0/],
    [{ TURNSTILE_SITE_KEY: 'site' }, /TURNSTILE_SITE_KEY and TURNSTILE_SECRET_KEY go together/],
    [{ TURNSTILE_SECRET_KEY: 'secret' }, /go together/],
    [{ TURNSTILE_SITE_KEY: 'a b', TURNSTILE_SECRET_KEY: 'k' }, /TURNSTILE_SITE_KEY must be/],
    [{ TURNSTILE_SITE_KEY: 's', TURNSTILE_SECRET_KEY: 'k', TURNSTILE_VERIFY_URL: 'ftp://x' }, /TURNSTILE_VERIFY_URL/],
    [{ MEDIA_STORE: 'gs://bucket' }, /MEDIA_STORE must be s3:\/\/bucket\/prefix or disk/],
    [{ MEDIA_STORE: '/srv/media' }, /MEDIA_STORE must be/],
    [{ MEDIA_STORE: 's3://' }, /bucket must be 3-63/],
    [{ MEDIA_STORE: 's3://My_Bucket/x' }, /bucket must be 3-63/],
    [{ MEDIA_STORE: 's3://192.168.0.1/x' }, /bucket must be/],
    [{ MEDIA_STORE: 's3://inkpass/../other' }, /prefix must be folder names/],
    [{ MEDIA_STORE: 's3://inkpass/a//b' }, /prefix must be folder names/],
    [{ MEDIA_STORE: 's3://inkpass/media', S3_ENDPOINT: 'minio:9000' }, /S3_ENDPOINT must be an http\(s\) URL/],
    [{ MEDIA_STORE: 's3://inkpass/media', S3_ENDPOINT: 'http://minio:9000/inkpass' }, /S3_ENDPOINT must be an http\(s\) URL without a path/],
    [{ MEDIA_STORE: 's3://inkpass/media', S3_REGION: 'EU West' }, /S3_REGION/],
    [{ MEDIA_STORE: 's3://inkpass/media', S3_ACCESS_KEY_ID: 'AKIA' }, /S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together/],
    [{ MEDIA_STORE: 's3://inkpass/media', S3_SECRET_ACCESS_KEY: 'secret' }, /go together/],
    [{ MEDIA_STORE: 's3://inkpass/media', S3_FORCE_PATH_STYLE: 'yes' }, /S3_FORCE_PATH_STYLE must be 1 or 0/],
  ])('stops the start on a bad value: %j', (env, message) => {
    expect(() => readConfig(env)).toThrow(message);
  });

  it('runs one server process per core unless WORKERS says how many; an in-memory database only with one', () => {
    expect(readConfig({ WORKERS: '1' }).workers).toBe(1);
    expect(readConfig({ WORKERS: ' 3 ' }).workers).toBe(3);
    expect(startupRefusals(readConfig({ WORKERS: '2', DATABASE_URL: ':memory:' }))).toEqual([expect.stringMatching(/^WORKERS=2 with DATABASE_URL=:memory:/)]);
    expect(startupRefusals(readConfig({ WORKERS: '1', DATABASE_URL: ':memory:' }))).toEqual([]);
    expect(startupRefusals(readConfig({ WORKERS: '2' }))).toEqual([]);
  });

  it('gives commands the running server\'s address from PORT and HOST, a wildcard HOST through loopback', () => {
    expect(localOrigin(readConfig({ PORT: '4500' }))).toBe('http://127.0.0.1:4500');
    expect(localOrigin(readConfig({ PORT: '4501', HOST: '0.0.0.0', INKPASS_MODE: 'demo' }))).toBe('http://127.0.0.1:4501');
    expect(localOrigin(readConfig({ PORT: '4502', HOST: '10.1.2.3', INKPASS_MODE: 'demo' }))).toBe('http://10.1.2.3:4502');
    expect(localOrigin(readConfig({ HOST: '::', INKPASS_MODE: 'demo' }))).toBe('http://127.0.0.1:4321');
    expect(localOrigin(readConfig({ HOST: '::1' }))).toBe('http://[::1]:4321');
  });
});

describe('the welcome for new readers (issue 26)', () => {
  it('gives a demo its default per site and production none, unless set per site', () => {
    expect(readConfig({}).welcomeXtraKeys).toEqual({ 1: DEMO_WELCOME_XTRA_KEYS, 3: DEMO_WELCOME_XTRA_KEYS });
    expect(readConfig({ INKPASS_MODE: 'production' }).welcomeXtraKeys).toEqual({ 1: 0, 3: 0 });
    expect(readConfig({ INKPASS_MODE: 'production', WELCOME_XTRA_KEYS_BR: '5' }).welcomeXtraKeys).toEqual({ 1: 0, 3: 5 });
    expect(readConfig({ WELCOME_XTRA_KEYS_EN: '0' }).welcomeXtraKeys).toEqual({ 1: 0, 3: DEMO_WELCOME_XTRA_KEYS });
  });

  it('refuses a value that is not a whole number from 0 to 1000, naming the setting', () => {
    for (const bad of ['-1', '2.5', 'six', '1001']) expect(() => readConfig({ WELCOME_XTRA_KEYS_EN: bad })).toThrow(/WELCOME_XTRA_KEYS_EN/);
  });
});

describe('the seller receipts name (issue 28)', () => {
  it('gives a demo its demo seller, production only what is set, each setting on its own', () => {
    expect(readConfig({}).seller).toEqual(DEMO_SELLER);
    expect(readConfig({ INKPASS_MODE: 'production' }).seller).toEqual({ name: null, address: null, taxId: null });
    expect(readConfig({ INKPASS_MODE: 'production', SELLER_NAME: '  Inkpass  Comics Ltda. ', SELLER_TAX_ID: '12.345.678/0001-95' }).seller)
      .toEqual({ name: 'Inkpass Comics Ltda.', address: null, taxId: '12.345.678/0001-95' });
    expect(readConfig({ SELLER_ADDRESS: 'Rua Augusta, 100\nSão Paulo' }).seller).toEqual({ ...DEMO_SELLER, address: 'Rua Augusta, 100 São Paulo' });
  });

  it('refuses a value too long or with control characters, naming the setting', () => {
    expect(() => readConfig({ SELLER_NAME: 'x'.repeat(121) })).toThrow(/SELLER_NAME/);
    expect(() => readConfig({ SELLER_TAX_ID: 'x'.repeat(65) })).toThrow(/SELLER_TAX_ID/);
    expect(() => readConfig({ SELLER_ADDRESS: 'a\u0000b' })).toThrow(/SELLER_ADDRESS/);
  });
});

describe('logs and metrics (issue 29)', () => {
  it.each([
    [undefined, 'info'], ['', 'info'], ['debug', 'debug'], [' WARN ', 'warn'], ['silent', 'silent'], ['error', 'error'],
  ])('LOG_LEVEL=%s is %s', (raw, level) => {
    expect(readConfig(raw === undefined ? {} : { LOG_LEVEL: raw }).logLevel).toBe(level);
  });

  it.each(['verbose', '30', 'info,debug'])('refuses LOG_LEVEL=%s, naming the setting and the levels', (raw) => {
    expect(() => readConfig({ LOG_LEVEL: raw })).toThrow(/LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/);
  });

  it('serves no metrics without METRICS_TOKEN, and refuses a token that is short or does not fit a header', () => {
    expect(readConfig({}).metricsToken).toBeNull();
    expect(readConfig({ METRICS_TOKEN: '  ' }).metricsToken).toBeNull();
    const token = 'a'.repeat(METRICS_TOKEN_MIN_LENGTH);
    expect(readConfig({ METRICS_TOKEN: ` ${token} ` }).metricsToken).toBe(token);
    expect(() => readConfig({ METRICS_TOKEN: 'a'.repeat(METRICS_TOKEN_MIN_LENGTH - 1) })).toThrow(/METRICS_TOKEN must be/);
    expect(() => readConfig({ METRICS_TOKEN: `${token} b` })).toThrow(/METRICS_TOKEN must be/);
    expect(() => readConfig({ METRICS_TOKEN: `${token}é` })).toThrow(/METRICS_TOKEN must be/);
  });
});

describe('error reporting (issue 29)', () => {
  it('is off without SENTRY_DSN, on with one, and off again while the debug flag is set', () => {
    expect(readConfig({}).errors).toEqual({ dsn: null, debug: false, enabled: false, environment: 'demo', sampleRate: 1, tracesSampleRate: 0.1, bufferSize: 30 });
    const dsn = 'https://abc123@o1.ingest.sentry.io/42';
    expect(readConfig({ SENTRY_DSN: dsn, INKPASS_MODE: 'production' }).errors).toMatchObject({ dsn, enabled: true, environment: 'production' });
    expect(readConfig({ SENTRY_DSN: 'http://key@glitchtip.internal:8000/7' }).errors.enabled).toBe(true);
    expect(readConfig({ SENTRY_DSN: dsn, INKPASS_DEBUG: '1' }).errors).toMatchObject({ dsn, debug: true, enabled: false });
  });

  it('refuses a DSN that is not one, or a debug flag that is not 1 or 0, naming the setting without the key', () => {
    for (const bad of ['sentry.io/42', 'https://o1.ingest.sentry.io/42', 'ftp://k@host/1', 'https://k@host/', 'https://k@host/1?x=1']) {
      expect(() => readConfig({ SENTRY_DSN: bad })).toThrow(/SENTRY_DSN must be a DSN/);
    }
    expect(() => readConfig({ SENTRY_DSN: 'https://secretkey@host/' })).toThrow(/^(?!.*secretkey)/s);
    expect(() => readConfig({ INKPASS_DEBUG: 'yes' })).toThrow(/INKPASS_DEBUG must be 1 or 0/);
  });
});
