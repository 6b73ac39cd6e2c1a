import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Dropin } from 'braintree-web-drop-in';
import { DROPIN_LOAD_TIMEOUT_MS, dropinLocale, dropinOptions, loadDropin, type DropinConfig, type DropinLoader } from './dropin.client';

const container = {} as HTMLElement;
const config: DropinConfig = { clientToken: 'token', currency: 'USD', total: '4.99', locale: 'en' };

function fakeDropin(): Dropin & { teardown: ReturnType<typeof vi.fn> } {
  return {
    requestPaymentMethod: vi.fn(async () => ({ nonce: 'fake-valid-nonce', type: 'CreditCard', deviceData: '{"correlation_id":"c"}' })),
    teardown: vi.fn(async () => {}),
  };
}

/** A loader whose module arrives after `loadMs` and whose create() takes `createMs`. */
function slowLoader(loadMs: number, createMs: number, instance = fakeDropin()) {
  const create = vi.fn(() => new Promise<Dropin>((resolve) => setTimeout(() => resolve(instance), createMs)));
  const load: DropinLoader = () => new Promise((resolve) => setTimeout(() => resolve({ create, css: '' }), loadMs));
  return { load, create, instance };
}

describe('loadDropin', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits the spec’s 120 s by default', () => {
    expect(DROPIN_LOAD_TIMEOUT_MS).toBe(120_000);
  });

  it('resolves when the Drop-in is ready in time, and hands out nonce and device data', async () => {
    const { load, create, instance } = slowLoader(30_000, 60_000);
    const loading = loadDropin(container, config, undefined, load);
    await vi.advanceTimersByTimeAsync(90_000);
    const dropin = await loading;
    expect(create).toHaveBeenCalledWith(expect.objectContaining({ authorization: 'token', container, dataCollector: true }));
    expect(await dropin.request()).toEqual({ nonce: 'fake-valid-nonce', deviceData: '{"correlation_id":"c"}' });
    await dropin.teardown();
    expect(instance.teardown).toHaveBeenCalledOnce();
  });

  it('gives null device data when the collector produced none', async () => {
    const instance = fakeDropin();
    instance.requestPaymentMethod = async () => ({ nonce: 'n', type: 'CreditCard', deviceData: '' });
    const dropin = await loadDropin(container, config, 1_000, async () => ({ create: async () => instance, css: '' }));
    expect(await dropin.request()).toEqual({ nonce: 'n', deviceData: null });
  });

  it('rejects with Error("timeout") when the module does not arrive within 120 s', async () => {
    const { load, create } = slowLoader(200_000, 0);
    const loading = loadDropin(container, config, undefined, load);
    let settled = false;
    loading.catch(() => {}).finally(() => (settled = true));
    const failed = expect(loading).rejects.toThrow(new Error('timeout'));
    await vi.advanceTimersByTimeAsync(119_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await failed;
    // The module that arrives later is not turned into a Drop-in.
    await vi.advanceTimersByTimeAsync(100_000);
    expect(create).not.toHaveBeenCalled();
  });

  it('times out when create() is what is slow, and removes the Drop-in that arrives late', async () => {
    const { load, instance } = slowLoader(1_000, 150_000);
    const loading = loadDropin(container, config, undefined, load);
    const failed = expect(loading).rejects.toThrow('timeout');
    await vi.advanceTimersByTimeAsync(120_000);
    await failed;
    expect(instance.teardown).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(31_000);
    expect(instance.teardown).toHaveBeenCalledOnce();
  });

  it('takes a shorter time-out when given one', async () => {
    const { load } = slowLoader(5_000, 0);
    const loading = loadDropin(container, config, 2_000, load);
    const failed = expect(loading).rejects.toThrow('timeout');
    await vi.advanceTimersByTimeAsync(2_000);
    await failed;
  });

  it('passes the Drop-in’s own errors through and leaves no timer behind', async () => {
    const load: DropinLoader = async () => ({ create: () => Promise.reject(new Error('Invalid authorization')), css: '' });
    await expect(loadDropin(container, config, undefined, load)).rejects.toThrow('Invalid authorization');
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('Drop-in options', () => {
  it('offers only cards unless wallets are enabled', () => {
    const options = dropinOptions(container, config);
    expect(options).toEqual({ authorization: 'token', container, locale: 'en_US', dataCollector: true, card: {} });
  });

  it('adds PayPal (vault flow), Google Pay and Apple Pay with the order total when enabled', () => {
    const options = dropinOptions(container, { ...config, currency: 'BRL', total: '19.90', locale: 'pt-BR', methods: ['card', 'paypal', 'googlepay', 'applepay'], googlePayMerchantId: 'BCR2DN4T' });
    expect(options).toMatchObject({
      locale: 'pt_BR',
      paypal: { flow: 'vault' },
      googlePay: { googlePayVersion: 2, merchantId: 'BCR2DN4T', transactionInfo: { totalPriceStatus: 'FINAL', totalPrice: '19.90', currencyCode: 'BRL' } },
      applePay: { displayName: 'Inkpass', paymentRequest: { total: { label: 'Inkpass', amount: '19.90' } } },
    });
  });

  it('can leave cards out', () => {
    expect(dropinOptions(container, { ...config, methods: ['paypal'] })).toMatchObject({ card: false, paypal: { flow: 'vault' } });
  });

  it('names locales the Drop-in way', () => {
    expect(dropinLocale('en')).toBe('en_US');
    expect(dropinLocale('pt-BR')).toBe('pt_BR');
    expect(dropinLocale('pt')).toBe('pt_BR');
    expect(dropinLocale('en-gb')).toBe('en_GB');
    expect(dropinLocale('xx')).toBe('en_US');
  });
});
