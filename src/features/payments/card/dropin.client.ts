/**
 * Braintree's Drop-in UI on the checkout page, when the Braintree provider is configured
 * (docs/payments.md "Card payments (Braintree)"). The Drop-in comes from the npm package
 * `braintree-web-drop-in`, bundled by Vite behind a dynamic import(): only a page that calls
 * loadDropin() downloads it (about 1 MB unminified), and never from a CDN.
 *
 * The Drop-in itself still talks to Braintree from the browser, as it must: card fields are
 * Braintree-hosted iframes (card numbers never touch our page), it reads the merchant's
 * configuration with the client token, and the wallets load their vendors' scripts.
 */
import type { Dropin } from 'braintree-web-drop-in';
import type { CardMethod } from '~/features/payments/provider';

/** The spec's Drop-in load time-out (payment constants). */
export const DROPIN_LOAD_TIMEOUT_MS = 120_000;

/** Drop-in refuses to fetch its stylesheet when an element with this id exists (constants.js). */
const STYLESHEET_ID = 'braintree-dropin-stylesheet';

export interface DropinConfig {
  clientToken: string;
  /** ISO 4217 of the order, for the wallets' payment sheets. */
  currency: string;
  /** The order total as a decimal string ("4.99"), shown by Google Pay and Apple Pay. */
  total: string;
  /** The site's locale ("en", "pt-BR"). */
  locale: string;
  /** Methods enabled for this merchant; wallets are offered only when listed. Default: card. */
  methods?: readonly CardMethod[];
  /** Google's merchant id, required by Google Pay in production. */
  googlePayMerchantId?: string;
}

export interface LoadedDropin {
  /** Tokenizes the chosen method: a single-use nonce plus device data for fraud checks. */
  request(): Promise<{ nonce: string; deviceData: string | null }>;
  teardown(): Promise<void>;
}

/** What loading brings: the Drop-in module and its stylesheet's text (tests pass fakes). */
export type DropinLoader = () => Promise<{ create(options: Record<string, unknown>): Promise<Dropin>; css: string }>;

const loadFromBundle: DropinLoader = async () => {
  const [mod, css] = await Promise.all([import('braintree-web-drop-in'), import('braintree-web-drop-in/dropin.css?inline')]);
  // The package is CommonJS: depending on the bundler, `create` sits on the namespace or its default.
  const api = (mod as { default?: { create?: typeof mod.create } }).default?.create ? (mod as unknown as { default: typeof mod }).default : mod;
  return { create: (options) => api.create(options), css: css.default };
};

/**
 * Loads and shows the Drop-in in `container`. Rejects with Error('timeout') when loading and
 * setting up take longer than `timeoutMs` (the caller shows its localized message); any other
 * rejection is the Drop-in's own error.
 */
export async function loadDropin(
  container: HTMLElement,
  config: DropinConfig,
  timeoutMs: number = DROPIN_LOAD_TIMEOUT_MS,
  load: DropinLoader = loadFromBundle,
): Promise<LoadedDropin> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timedOut = false;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      reject(new Error('timeout'));
    }, timeoutMs);
  });
  const creating = (async () => {
    const { create, css } = await load();
    if (timedOut) throw new Error('timeout');
    injectStylesheet(css);
    return create(dropinOptions(container, config));
  })();
  // A Drop-in that turns up after the time-out is removed, so it never appears under the error.
  creating.then(
    (late) => {
      if (timedOut) void late.teardown().catch(() => {});
    },
    () => {},
  );
  try {
    const instance = await Promise.race([creating, timeout]);
    return {
      async request() {
        const payload = await instance.requestPaymentMethod();
        return { nonce: payload.nonce, deviceData: payload.deviceData || null };
      },
      teardown: () => instance.teardown(),
    };
  } finally {
    clearTimeout(timer);
  }
}

/** Drop-in's create() options: the wallets only when enabled, device data always. */
export function dropinOptions(container: HTMLElement, config: DropinConfig): Record<string, unknown> {
  const methods = new Set(config.methods ?? ['card']);
  const options: Record<string, unknown> = {
    authorization: config.clientToken,
    container,
    locale: dropinLocale(config.locale),
    // Device data lets Braintree's fraud tools see the device; the sale passes it through.
    dataCollector: true,
    card: methods.has('card') ? {} : false,
  };
  // Vault flow: PayPal returns a reusable agreement nonce without a second confirmation page.
  if (methods.has('paypal')) options.paypal = { flow: 'vault' };
  if (methods.has('googlepay')) {
    options.googlePay = {
      googlePayVersion: 2,
      ...(config.googlePayMerchantId ? { merchantId: config.googlePayMerchantId } : {}),
      transactionInfo: { totalPriceStatus: 'FINAL', totalPrice: config.total, currencyCode: config.currency },
    };
  }
  if (methods.has('applepay')) {
    options.applePay = { displayName: 'Inkpass', paymentRequest: { total: { label: 'Inkpass', amount: config.total } } };
  }
  return options;
}

/** "pt-BR" -> "pt_BR", "en" -> "en_US": the Drop-in names locales language_REGION. */
export function dropinLocale(locale: string): string {
  const [language = 'en', region] = locale.split(/[-_]/);
  if (region) return `${language.toLowerCase()}_${region.toUpperCase()}`;
  return ({ en: 'en_US', pt: 'pt_BR' } as Record<string, string>)[language.toLowerCase()] ?? 'en_US';
}

/** The bundled stylesheet, so the Drop-in does not fetch its own from Braintree's servers. */
function injectStylesheet(css: string) {
  if (!css || typeof document === 'undefined' || document.getElementById(STYLESHEET_ID)) return;
  const style = document.createElement('style');
  style.id = STYLESHEET_ID;
  style.textContent = css;
  document.head.append(style);
}
