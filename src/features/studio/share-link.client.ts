/**
 * The series page's link-generation buttons for staff with `content` (spec sections 6-8). Without
 * JavaScript each button submits the page's form to POST /_/dynamic_link, which answers with a
 * page showing the link. With it, the click posts the same call, copies the short link to the
 * clipboard and says so in the page's live status (`[data-share-status]`, whose data-* carry the
 * localized messages with `{link}`, `{status}` and `{data}` slots); a failure says why in the
 * spec's words.
 */
export function initShareLinks(doc: Document = document): void {
  const status = doc.querySelector<HTMLElement>('[data-share-status]');
  if (!status) return;
  const say = (template: string | undefined, slot: string, value: string, failed: boolean) => {
    status.textContent = (template ?? '').replace(`{${slot}}`, value);
    status.classList.toggle('notice-danger', failed);
    status.hidden = false;
  };
  doc.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest?.<HTMLButtonElement>('button[data-share]');
    if (!button) return;
    event.preventDefault();
    void share(button);
  });

  async function share(button: HTMLButtonElement): Promise<void> {
    const action = button.getAttribute('formaction') ?? '';
    button.disabled = true;
    try {
      let res: Response;
      try {
        res = await fetch(action, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ path: button.value }),
        });
      } catch {
        say(status!.dataset.requestFailed, 'status', '0', true);
        return;
      }
      const body = (await res.json().catch(() => null)) as { success?: unknown; data?: unknown } | null;
      if (body && body.success === true && typeof body.data === 'string') {
        const copied = await navigator.clipboard?.writeText(body.data).then(() => true, () => false);
        say(copied ? status!.dataset.copied : status!.dataset.ready, 'link', body.data, false);
      } else if (body && body.success === false && typeof body.data === 'string') {
        say(status!.dataset.failed, 'data', body.data, true);
      } else {
        say(status!.dataset.requestFailed, 'status', String(res.status), true);
      }
    } finally {
      button.disabled = false;
    }
  }
}
