/**
 * npm run doctor
 *
 * Says whether this configuration (the environment, as the server would read it) and database
 * are safe to serve a real shop: the mode, each payment provider, the secret's origin, webhooks,
 * the proxy and country settings, the cron jobs a production install needs, and what production
 * would refuse or lack. Exits 1 when a production server would refuse to start with this
 * environment and database (INKPASS_MODE=production added if it is not set), 0 otherwise.
 * docs/operations.md ("Production checklist") is built on it. Reads only; changes nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { config, readConfig, isLoopback, type Config } from '~/server/config.mjs';
import { demoAccountCount, refusalsAtStart } from '~/server/startup.mjs';
import { mediaStore } from '~/server/media-store';

const ok = (s: string) => console.log(`  ok    ${s}`);
const warn = (s: string) => console.log(`  warn  ${s}`);
const info = (s: string) => console.log(`  info  ${s}`);
const bad = (s: string) => console.log(`  NO    ${s}`);

function section(title: string) {
  console.log(`\n${title}`);
}

function describeProviders(c: Config) {
  const p = c.payments;
  if (p.card === 'none') info('cards (card, PayPal, Google Pay, Apple Pay): not offered (PAYMENTS_CARD unset)');
  else if (p.card === 'sandbox') (c.mode === 'demo' ? ok : bad)('cards: the local sandbox (test cards, no money moves)');
  else {
    const env = p.braintree!.environment;
    const where = typeof env === 'string' ? env : `a gateway at ${env.host}:${env.port} (a test stand-in)`;
    (env === 'production' ? ok : c.mode === 'production' ? (typeof env === 'string' ? bad : warn) : info)(`cards: Braintree, ${where} environment, merchant ${p.braintree!.merchantId}; merchant accounts ${Object.keys(p.braintree!.merchantAccounts).join(', ') || 'the default one (its currency only)'}`);
  }
  if (p.pix === 'none') info('Pix (Portuguese site): not offered (PAYMENTS_PIX unset)');
  else if (p.pix === 'sandbox') (c.mode === 'demo' ? ok : bad)('Pix: the local sandbox (pay charges with `npm run payments -- pay <id>`)');
  else {
    const op = p.openpix!;
    ok(`Pix: OpenPix/Woovi at ${op.baseUrl}, app id set; charges payable for ${p.pixExpiresSeconds} s`);
    ok(`Pix webhooks: POST /webhooks/pix/ checked with ${op.webhookPublicKey ? 'your RSA public key' : "Woovi's published RSA key"}${op.webhookSecret ? ' and the HMAC secret (both must pass)' : ''}; register that URL in Woovi's dashboard`);
  }
  if (p.pix === 'sandbox') info('Pix webhooks: the sandbox signs its own deliveries with a key derived from the secret');
}

function describeSecret(c: Config) {
  if (c.secret !== null) return ok('INKPASS_SECRET is set (every process must have the same value)');
  const file = path.join(c.dataDir, 'secret.key');
  const where = fs.existsSync(file) ? `kept in ${file}` : `to be generated into ${file} at the first start`;
  if (/^postgres/.test(c.databaseUrl)) bad(`INKPASS_SECRET is not set while the database is PostgreSQL: ${where}, which other processes cannot share`);
  else info(`INKPASS_SECRET is not set: the secret is ${where} (fine for one process on one machine; back it up with the database)`);
}

const production = c0Production();
function c0Production(): Config {
  return config.mode === 'production' ? config : readConfig({ ...process.env, INKPASS_MODE: 'production' });
}

console.log(`Inkpass doctor: ${config.databaseUrl.startsWith('postgres') ? 'PostgreSQL' : 'SQLite'} database ${config.databaseUrl.replace(/\/\/[^@/]*@/, '//…@')}`);

section('Mode');
if (config.mode === 'demo') {
  warn(`DEMO mode${config.modeSet ? ' (INKPASS_MODE=demo)' : ' (INKPASS_MODE is not set)'}: sandboxes, demo accounts, a band on every page; no real money moves`);
  info(`listening on ${config.host}:${config.port}${isLoopback(config.host) ? ' (this machine only)' : ''}`);
} else {
  ok(`production mode (INKPASS_MODE=production), listening on ${config.host}:${config.port}`);
}

section('Payments');
describeProviders(config);
if (config.mode === 'demo') {
  console.log('  In production mode these would be:');
  describeProviders(production);
}
const offered = production.payments.card !== 'none' || production.payments.pix !== 'none';
if (!offered) warn('production would offer no payment method: readers could not buy keys or subscribe (the pages say so)');

section('Secret');
describeSecret(config);

section('Behind the proxy');
(config.trustProxy ? ok : info)(config.trustProxy ? 'TRUST_PROXY=1: X-Forwarded-* from your proxy are believed (it must set them itself)' : 'TRUST_PROXY is off: forwarded headers are ignored (right when nothing is in front; set 1 behind a proxy)');
(config.countryHeader ? ok : info)(config.countryHeader ? `COUNTRY_HEADER=${config.countryHeader}: region blocks apply` : 'COUNTRY_HEADER is not set: no country is known and no region block applies');
(config.siteHosts.length ? ok : warn)(config.siteHosts.length ? `SITE_HOSTS=${config.siteHosts.join(',')} (at build time)` : 'SITE_HOSTS is not set: build with your host names or links fall back to localhost');
(config.cookieDomain ? ok : info)(config.cookieDomain ? `COOKIE_DOMAIN=${config.cookieDomain}: one sign-in for both sites` : 'COOKIE_DOMAIN is not set: readers sign in on each site separately');

section('Cron jobs a production install runs');
info('npm run payments -- reconcile   every 10 minutes: payments whose confirmation was lost (a crash between sale and confirmation, a missed webhook)');
info('npm run subscriptions -- renew  every few hours: renewals due, lapsed and cancelled subscriptions');
info('(expired Pix charges settle by themselves: each server checks once a minute)');

section('Database');
let demo = 0;
try {
  demo = await demoAccountCount(config.databaseUrl);
  (demo ? (config.mode === 'demo' ? info : bad) : ok)(demo ? `${demo} demo account(s) (their passwords are public): this database was prepared as a demo` : 'no demo accounts');
} catch (e) {
  bad(`the database cannot be read: ${(e as Error).message}`);
}

section('Media');
// Read only: one listing call proves the place (and on S3 the credentials) without writing to it.
try {
  const store = mediaStore();
  let first: string | null = null;
  for await (const object of store.list('')) { first = object.key; break; }
  if (store.kind === 'disk') fs.accessSync(config.mediaDir, fs.constants.W_OK);
  (first ? ok : warn)(`${store.kind === 's3' ? 'the bucket' : 'the media folder'} ${store.location} ${first ? 'answers and holds images' : 'answers but holds no images yet (a new install: `npm run seed`, or `npm run media -- copy --to …` from an old one)'}`);
} catch (e) {
  bad(`media: ${config.mediaStore.kind === 's3' ? 'the bucket' : 'the media folder'} cannot be read or written: ${(e as Error).message}`);
}

section('Production');
const refusals = await refusalsAtStart(production);
if (refusals.length === 0) ok(`a production server would start${config.mode === 'demo' ? ' (with INKPASS_MODE=production)' : ''}`);
else for (const r of refusals) bad(`a production server would refuse to start: ${r}`);
process.exit(refusals.length ? 1 : 0);
