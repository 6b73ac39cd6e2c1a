/**
 * Web push in the browser (docs/notifications.md, "Web push"). Nothing here runs on load but a
 * look at this device's state: permission is asked only when the reader presses "notify me" (the
 * notify button's form) or turns push on in the settings; the service worker is registered then.
 */
import { NOTIFICATION_PUSH_PATH } from '~/lib/paths';

export type PushOutcome = 'ok' | 'ios' | 'unsupported' | 'denied' | 'failed';

/** iPhone and iPad Safari get push only for a site added to the Home Screen (opened standalone). */
export function needsHomeScreen(): boolean {
  const ios = /iPad|iPhone|iPod/.test(navigator.userAgent) || (navigator.platform === 'MacIntel' && navigator.maxTouchPoints > 1);
  const standalone = (navigator as Navigator & { standalone?: boolean }).standalone === true || window.matchMedia('(display-mode: standalone)').matches;
  return ios && !standalone;
}

export function pushSupported(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const raw = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

/** This device's subscription, if it has one (no permission prompt, no registration). */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported() || Notification.permission !== 'granted') return null;
  const reg = await navigator.serviceWorker.getRegistration('/');
  return reg ? reg.pushManager.getSubscription() : null;
}

/**
 * Asks permission (call it straight from the reader's click: the prompt needs the gesture),
 * registers /sw.js, subscribes with the site's VAPID key and gives the subscription to the server.
 */
export async function subscribeThisDevice(publicKey: string): Promise<PushOutcome> {
  if (needsHomeScreen()) return 'ios';
  if (!pushSupported()) return 'unsupported';
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return 'denied';
  try {
    const reg = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
    await navigator.serviceWorker.ready;
    const sub = (await reg.pushManager.getSubscription()) ?? (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
    const res = await fetch(NOTIFICATION_PUSH_PATH, {
      method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...sub.toJSON(), timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone }),
    });
    return res.ok ? 'ok' : 'failed';
  } catch {
    return 'failed';
  }
}

/** Unsubscribes this device and tells the server to forget it. */
export async function unsubscribeThisDevice(): Promise<boolean> {
  const sub = await currentSubscription();
  if (!sub) return true;
  const endpoint = sub.endpoint;
  await sub.unsubscribe().catch(() => false);
  const res = await fetch(NOTIFICATION_PUSH_PATH, {
    method: 'DELETE', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ endpoint }),
  }).catch(() => null);
  return !!res?.ok;
}

const IOS_NOTE = 'inkpass-push-ios-note';

/**
 * The notify button (NotifyButton.astro, a form that works without JavaScript): when it turns
 * notify on and push is offered (`data-push-key`), ask for push first, then submit the form as
 * before, whatever the answer. On iPhone and iPad outside the Home Screen, nothing is asked; the
 * page that comes back shows the note.
 */
export function enhanceNotifyForms(root: ParentNode = document): void {
  for (const note of root.querySelectorAll<HTMLElement>('[data-push-ios-note]')) {
    if (sessionStorage.getItem(IOS_NOTE) === note.dataset.pushIosNote) { note.hidden = false; sessionStorage.removeItem(IOS_NOTE); }
  }
  for (const form of root.querySelectorAll<HTMLFormElement>('form.notify-form[data-push-key]')) {
    if (form.dataset.pushReady) continue;
    form.dataset.pushReady = '1';
    form.addEventListener('submit', (event) => {
      const turningOn = (form.elements.namedItem('notify') as HTMLInputElement | null)?.value === '1';
      if (!turningOn) return;
      if (needsHomeScreen()) { sessionStorage.setItem(IOS_NOTE, form.dataset.pushSeries ?? ''); return; }
      if (!pushSupported() || Notification.permission === 'denied') return;
      event.preventDefault();
      const button = form.querySelector('button');
      if (button) button.disabled = true;
      // Asked here, inside the reader's press; the form goes on after the answer (or 15 s at most).
      const asked = subscribeThisDevice(form.dataset.pushKey!);
      const late = new Promise((resolve) => setTimeout(resolve, 15_000));
      void Promise.race([asked, late]).finally(() => form.submit());
    });
  }
}

/**
 * The settings page's device block (PushSettings.astro): this device's state, a button to get
 * push here or stop it, and the settings form's push boxes: ticking one subscribes this device
 * (and is unticked again if the reader or the browser says no).
 */
export function enhancePushSettings(block: HTMLElement): void {
  const key = block.dataset.pushKey!;
  const show = (name: string | null) => {
    for (const el of block.querySelectorAll<HTMLElement>('[data-push-msg]')) el.hidden = el.dataset.pushMsg !== name;
  };
  const on = block.querySelector<HTMLButtonElement>('[data-push-subscribe]')!;
  const off = block.querySelector<HTMLButtonElement>('[data-push-unsubscribe]')!;
  const render = async () => {
    if (needsHomeScreen()) { show('ios'); on.hidden = true; off.hidden = true; return; }
    if (!pushSupported()) { show('unsupported'); on.hidden = true; off.hidden = true; return; }
    if (Notification.permission === 'denied') { show('denied'); on.hidden = true; off.hidden = true; return; }
    const sub = await currentSubscription();
    show(sub ? 'on' : 'off');
    on.hidden = !!sub;
    off.hidden = !sub;
  };
  const subscribe = async (): Promise<boolean> => {
    on.disabled = true;
    const outcome = await subscribeThisDevice(key);
    on.disabled = false;
    if (outcome === 'ok') { await render(); return true; }
    await render();
    if (outcome === 'failed') show('failed');
    return false;
  };
  on.addEventListener('click', () => void subscribe());
  off.addEventListener('click', async () => {
    off.disabled = true;
    await unsubscribeThisDevice();
    off.disabled = false;
    await render();
  });
  for (const box of document.querySelectorAll<HTMLInputElement>('input[type="checkbox"][name="on"][value$=".push"]')) {
    box.addEventListener('change', async () => {
      if (!box.checked || (await currentSubscription())) return;
      if (!(await subscribe())) box.checked = false;
    });
  }
  block.hidden = false;
  void render();
}
