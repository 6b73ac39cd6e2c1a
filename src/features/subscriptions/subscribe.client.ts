/**
 * The subscribe button on series pages. A plain module script, not an island
 * (docs/architecture.md): it is one button and two lines of text on server-rendered HTML, so
 * React would cost more than the behaviour. Without JavaScript the button submits its form
 * (POST /my/subscriptions/add/, which comes back to the page); with it, the script posts JSON
 * `{comic_id}` to the add-comic call and walks the spec's states: "Subscribing..." (disabled),
 * then "Series subscribed" with the slots left and a reload after 1.5 s, or back to idle with
 * the server's message (and the plans link when the reader has no plan).
 */
import { missingData, networkFailure, outcomeOf, SUBSCRIBE_RELOAD_MS, type SubscribeFailure, type SubscribeMessages, type SubscribeOutcome } from './subscribe-button';

function messagesOf(form: HTMLElement): SubscribeMessages | null {
  try {
    return JSON.parse(form.dataset.messages ?? '') as SubscribeMessages;
  } catch {
    return null;
  }
}

async function call(endpoint: string, comicId: string, m: SubscribeMessages, locale: string): Promise<SubscribeOutcome> {
  let res: Response;
  try {
    res = await fetch(endpoint, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ comic_id: comicId }),
    });
  } catch {
    return networkFailure(m);
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    body = undefined;
  }
  return outcomeOf(res.status, body, m, locale);
}

function enhance(form: HTMLFormElement) {
  const box = form.closest<HTMLElement>('[data-subscribe-box]') ?? form;
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  const status = box.querySelector<HTMLElement>('[data-subscribe-status]');
  const error = box.querySelector<HTMLElement>('[data-subscribe-error]');
  const errorText = error?.querySelector<HTMLElement>('[data-subscribe-error-text]');
  const plans = error?.querySelector<HTMLElement>('[data-plans]');
  const m = messagesOf(form);
  const endpoint = form.dataset.endpoint;
  // Anything missing from the page: leave the form to do its work without the script.
  if (!button || !m || !endpoint) return;
  const idle = button.textContent ?? '';
  const locale = document.documentElement.lang || 'en';

  const fail = (outcome: SubscribeFailure) => {
    button.disabled = false;
    button.removeAttribute('aria-busy');
    button.textContent = idle;
    if (status) status.textContent = '';
    if (errorText) errorText.textContent = outcome.text;
    if (plans) plans.hidden = !outcome.plans;
    if (error) error.hidden = false;
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (button.disabled) return;
    if (error) error.hidden = true;
    const comicId = button.value.trim();
    if (!comicId) {
      fail(missingData(m));
      return;
    }
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
    button.textContent = m.pending;
    const outcome = await call(endpoint, comicId, m, locale);
    if (outcome.kind === 'failed') {
      fail(outcome);
      return;
    }
    // Stays disabled: the page loads again with the series shown as subscribed.
    button.removeAttribute('aria-busy');
    button.textContent = outcome.text;
    if (status) status.textContent = outcome.slots;
    setTimeout(() => location.reload(), SUBSCRIBE_RELOAD_MS);
  });
}

export function initSubscribeButtons() {
  for (const form of document.querySelectorAll<HTMLFormElement>('form[data-subscribe]')) enhance(form);
}
