import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readConfig } from './config.mjs';
import { parseBrowserReports, routeName, startErrorReporting } from './error-reports.mjs';
import { startSentryReceiver, type SentryReceiver } from '../../tests/support/sentry-receiver';

describe('the SDK as configured (spec section 9)', () => {
  let receiver: SentryReceiver;
  let Sentry: typeof import('@sentry/node');
  beforeAll(async () => {
    receiver = await startSentryReceiver();
    const sdk = await startErrorReporting(readConfig({ SENTRY_DSN: receiver.dsn, INKPASS_MODE: 'production' }).errors, 'abc123def456');
    if (!sdk) throw new Error('the SDK did not start');
    Sentry = sdk;
  });
  afterAll(async () => {
    vi.useRealTimers();
    await Sentry?.close(1000);
    await receiver?.close();
  });

  it('has the spec\'s rates, buffer, release and environment, and sends no personal data by default', () => {
    const options = Sentry.getClient()!.getOptions();
    expect(options).toMatchObject({ sampleRate: 1, tracesSampleRate: 0.1, release: '1.0.0+abc123def456', environment: 'production', sendDefaultPii: false, transportOptions: { bufferSize: 30 } });
    // Nothing that patches http, fetch or the console: one transaction per request comes from scripts/serve.mjs.
    expect(options.integrations.map((i) => i.name).sort()).toEqual(['Dedupe', 'LinkedErrors', 'OnUncaughtException', 'OnUnhandledRejection']);
  });

  it('leaves the receiver alone for 60 s after a 429 without Retry-After, then sends again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.now();
    receiver.refuse(1);
    Sentry.captureException(new Error('first, refused'));
    await receiver.waitFor(() => receiver.envelopes.length === 1);
    expect(receiver.envelopes[0]!.status).toBe(429);
    // The receiver keeps an envelope before it answers: let the SDK read the 429 first.
    await Sentry.flush(1000);
    vi.setSystemTime(start + 59_000);
    Sentry.captureException(new Error('at 59 s'));
    await Sentry.flush(1000);
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.envelopes).toHaveLength(1);
    vi.setSystemTime(start + 60_500);
    Sentry.captureException(new Error('at 60.5 s'));
    await receiver.waitFor(() => receiver.events().length === 1);
    expect(receiver.events()[0]!.exception.values[0].value).toBe('at 60.5 s');
    vi.useRealTimers();
  });
});

describe('the tunnel\'s reports', () => {
  it('takes the inline handler\'s shape and nothing else', () => {
    expect(parseBrowserReports([{ t: 'e', m: 'TypeError: x', s: 'at a', u: 'https://x/', f: 'https://x/a.js' }, { t: 'p', m: 'Redeem failed' }])).toEqual([
      { t: 'e', m: 'TypeError: x', s: 'at a', u: 'https://x/', f: 'https://x/a.js' },
      { t: 'p', m: 'Redeem failed' },
    ]);
    for (const bad of [null, {}, [], 'x', [{ t: 'e' }], [{ t: 'z', m: 'x' }], [{ t: 'e', m: 1 }], [{ t: 'e', m: 'x', s: 3 }], [{ t: 'e', m: 'x'.repeat(1001) }], Array.from({ length: 11 }, () => ({ t: 'e', m: 'x' }))]) {
      expect(parseBrowserReports(bad)).toBeNull();
    }
  });

  it('names transactions by route, without ids or tokens', () => {
    expect(routeName('/comics/some-series/?utm=1')).toBe('/comics/some-series/');
    expect(routeName('/read/EPI-k3j9d2ab/')).toBe('/read/:id/');
    expect(routeName('/media/p/EPI-k3j9d2ab/1.webp?exp=1&sig=a')).toBe('/media/p/:id/:id');
  });
});
