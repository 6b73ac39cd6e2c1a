/**
 * A Cloudflare Turnstile token (loaded by app-check-client.ts on first use, only when Turnstile is
 * the configured provider). Cloudflare's script is added to the page then, not before; the widget
 * shows itself only if Cloudflare wants the reader to click (`interaction-only`), inside the open
 * dialog when there is one (a modal dialog makes the rest of the page inert), and is removed as
 * soon as it has answered.
 */
import { turnstileToken } from './app-check';

const SCRIPT = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';

interface Turnstile {
  render(host: HTMLElement, options: Record<string, unknown>): string;
  remove(id: string): void;
}

let loading: Promise<Turnstile> | null = null;

function load(): Promise<Turnstile> {
  loading ??= new Promise<Turnstile>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = SCRIPT;
    script.async = true;
    script.onload = () => {
      const api = (window as unknown as { turnstile?: Turnstile }).turnstile;
      if (api) resolve(api);
      else reject(new Error('turnstile missing'));
    };
    script.onerror = () => reject(new Error('turnstile did not load'));
    document.head.append(script);
  }).catch((e: unknown) => {
    // The next call tries again (a network blip should not break every later payment).
    loading = null;
    throw e;
  });
  return loading;
}

/** A token (provider prefix included), or null when Cloudflare could not give one. */
export async function turnstileResponse(siteKey: string): Promise<string | null> {
  const api = await load();
  const host = document.createElement('div');
  host.className = 'app-check-turnstile';
  (document.querySelector('dialog[open]') ?? document.body).append(host);
  return new Promise((resolve) => {
    let id = '';
    const done = (response: string | null) => {
      if (id) api.remove(id);
      host.remove();
      resolve(response ? turnstileToken(response) : null);
    };
    id = api.render(host, {
      sitekey: siteKey,
      appearance: 'interaction-only',
      'refresh-expired': 'never',
      callback: (response: string) => done(response),
      'error-callback': () => done(null),
      'timeout-callback': () => done(null),
    });
  });
}
