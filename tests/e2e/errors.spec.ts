/**
 * Browser errors reach the error reports through the tunnel (docs/operations.md, "Error
 * reporting"): a real page in Chromium, its inline handler, POST /api/errors/, and a server
 * started here with SENTRY_DSN pointing at a local Sentry stand-in, so the e2e web server and the
 * other specs run without a DSN. A chunk that cannot load shows the localized "new version"
 * banner. Uses Playwright's own `test`: these pages throw on purpose.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { e2eServerEnv } from '../support/e2e-server';
import { freePort } from '../support/free-port';
import { message } from '../support/messages';
import { startSentryReceiver, type SentryReceiver } from '../support/sentry-receiver';


let receiver: SentryReceiver;
let child: ChildProcess;
let port: number;

test.beforeAll(async () => {
  receiver = await startSentryReceiver();
  port = await freePort();
  child = spawn(process.execPath, ['scripts/serve.mjs'], { env: { ...e2eServerEnv(port), SENTRY_DSN: receiver.dsn, WARMUP: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the reporting server did not start:\n${output}`)), 60_000);
    child.stdout!.on('data', (c) => { output += String(c); if (/Inkpass is serving/.test(output)) { clearTimeout(timer); resolve(); } });
    child.stderr!.on('data', (c) => { output += String(c); });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`the reporting server exited (${code}):\n${output}`)); });
  });
  child.removeAllListeners('exit');
});
test.afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  await receiver?.close();
});

test('a browser error on a real page reaches the reports through /api/errors/, and noise does not', async ({ page }) => {
  const tunnel: number[] = [];
  page.on('response', (r) => { if (r.url().endsWith('/api/errors/')) tunnel.push(r.status()); });
  await page.goto(`http://localhost:${port}/about/`);
  await page.evaluate(() => {
    setTimeout(() => { throw new TypeError('e2e: the page broke for reader@example.com'); });
    setTimeout(() => { throw new TypeError('Failed to fetch'); });
    void Promise.reject(new Error('e2e: a promise nobody caught'));
  });
  await expect.poll(() => receiver.events().length, { timeout: 10_000 }).toBe(2);
  expect(tunnel).toEqual([202]);
  const values = receiver.events().map((e) => e.exception.values[0]);
  expect(values).toEqual(expect.arrayContaining([
    expect.objectContaining({ type: 'TypeError', value: expect.stringMatching(/^(Uncaught )?TypeError: e2e: the page broke for \[email\]$/) }),
    expect.objectContaining({ type: 'UnhandledRejection', value: 'e2e: a promise nobody caught' }),
  ]));
  for (const e of receiver.events()) {
    expect(e).toMatchObject({ platform: 'javascript', environment: 'demo', tags: { source: 'browser' }, request: { url: `http://localhost:${port}/about/` } });
    expect(e.release).toMatch(/^1\.0\.0\+[0-9a-f]{12}$/);
  }
  expect(receiver.rawText()).not.toContain('Failed to fetch');
});

test('a chunk that cannot load shows the localized "new version" banner, with a Reload button, and is reported', async ({ page }) => {
  receiver.clear();
  for (const [host, locale] of [['localhost', 'en'], ['br.localhost', 'pt-BR']] as const) {
    await page.goto(`http://${host}:${port}/about/`);
    const banner = page.getByRole('alert').filter({ hasText: message(locale, 'error.chunk.body') });
    await expect(banner).toBeHidden();
    await page.evaluate(() => { void import(`/_astro/${'gone-after-a-deploy'}.js`); });
    await expect(banner).toBeVisible();
    // The report goes out a second after the failure, before the reload.
    await page.waitForResponse((r) => r.url().endsWith('/api/errors/') && r.status() === 202);
    const reload = banner.getByRole('button', { name: message(locale, 'error.chunk.reload') });
    await reload.focus();
    await Promise.all([page.waitForEvent('load'), page.keyboard.press('Enter')]);
    await expect(banner).toBeHidden();
  }
  await expect.poll(() => receiver.events().length, { timeout: 10_000 }).toBe(2);
  expect(receiver.events().map((e) => e.exception.values[0].type)).toEqual(['ChunkLoadError', 'ChunkLoadError']);
});
