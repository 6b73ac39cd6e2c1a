/**
 * The series page's link-generation buttons for staff with `content` (spec sections 6-8). Without
 * JavaScript each button submits the page's form to POST /_/dynamic_link, which answers with a
 * page showing the link. With it, the click posts the same call, copies the short link to the
 * clipboard and says so in the page's live status (`[data-share-status]`, whose data-* carry the
 * localized messages with `{link}`, `{status}` and `{data}` slots); a failure says why in the
 * spec's words.
 */
/** What the status says after a call: the link, the server's reason, or the HTTP status (spec section 8). */
export type ShareOutcome = { kind: 'link'; link: string } | { kind: 'failed'; data: string } | { kind: 'requestFailed'; status: number };

/** The outcome of a call that answered `status` with `body` (parsed JSON, or null). */
export function shareOutcome(status: number, body: unknown): ShareOutcome {
  const b = body as { success?: unknown; data?: unknown } | null;
  if (status === 200 && b?.success === true && typeof b.data === 'string') return { kind: 'link', link: b.data };
  if (b?.success === false && typeof b.data === 'string') return { kind: 'failed', data: b.data };
  return { kind: 'requestFailed', status };
}

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
      let outcome: ShareOutcome;
      try {
        const res = await fetch(action, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ path: button.value }),
        });
        outcome = shareOutcome(res.status, await res.json().catch(() => null));
      } catch {
        // No answer at all (offline, aborted): status 0, as fetch reports it.
        outcome = { kind: 'requestFailed', status: 0 };
      }
      if (outcome.kind === 'link') {
        const copied = await navigator.clipboard?.writeText(outcome.link).then(() => true, () => false);
        say(copied ? status!.dataset.copied : status!.dataset.ready, 'link', outcome.link, false);
      } else if (outcome.kind === 'failed') say(status!.dataset.failed, 'data', outcome.data, true);
      else say(status!.dataset.requestFailed, 'status', String(outcome.status), true);
    } finally {
      button.disabled = false;
    }
  }
}
