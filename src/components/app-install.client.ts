/**
 * The app box's install button. Chromium browsers fire `beforeinstallprompt` when the site can
 * be installed; the button appears only then, and asks the browser to show its own prompt.
 * Elsewhere (Safari, Firefox) the written steps on the page are the way, so nothing is lost
 * without the event or without JavaScript.
 */
interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

export function initAppInstall(): void {
  const button = document.querySelector<HTMLButtonElement>('[data-app-install-button]');
  const installed = document.querySelector<HTMLElement>('[data-app-installed]');
  if (!button || !installed) return;
  const showInstalled = () => {
    button.hidden = true;
    installed.hidden = false;
  };
  if (matchMedia('(display-mode: standalone)').matches) return showInstalled();
  let deferred: InstallPromptEvent | null = null;
  addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    deferred = event as InstallPromptEvent;
    button.hidden = false;
  });
  addEventListener('appinstalled', showInstalled);
  button.addEventListener('click', async () => {
    if (!deferred) return;
    const prompt = deferred;
    deferred = null;
    await prompt.prompt();
    const { outcome } = await prompt.userChoice;
    if (outcome === 'accepted') showInstalled();
    else button.hidden = true;
  });
}
