/**
 * The comments page with JavaScript (issue 31): likes, replies and "load more" without leaving the
 * place on the page. Every action still posts the same no-JS form (page.server.ts) and reads the
 * page the server answers with; this swaps in the comment that changed (or appends the next page)
 * from that HTML, so the server stays the one renderer and the one rule. Anything unexpected falls
 * back to the plain form post or link.
 */

const LIKE_INTENTS = new Set(['like', 'unlike']);

/** What the server answered: its document, or null when the request failed on the way. */
async function fetchPage(url: string, init?: RequestInit): Promise<{ ok: boolean; doc: Document } | null> {
  try {
    const res = await fetch(url, { credentials: 'same-origin', headers: { accept: 'text/html' }, ...init });
    const html = await res.text();
    return { ok: res.ok, doc: new DOMParser().parseFromString(html, 'text/html') };
  } catch {
    return null;
  }
}

/** Focus an element that is not focusable by itself (a comment), for screen readers and the keyboard. */
function focusBlock(el: HTMLElement): void {
  if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
  el.focus({ preventScroll: false });
}

/** The refusal the page came back with, shown next to the form (announced: role="alert"). */
function showRefusal(form: HTMLFormElement, doc: Document): boolean {
  const message = doc.getElementById('comment-error')?.textContent?.trim();
  if (!message) return false;
  form.parentElement?.querySelectorAll(':scope > .c-refusal').forEach((n) => n.remove());
  const p = document.createElement('p');
  p.className = 'notice notice-warning c-refusal';
  p.setAttribute('role', 'alert');
  p.textContent = message;
  form.after(p);
  return true;
}

async function submitInPlace(form: HTMLFormElement): Promise<void> {
  const data = new FormData(form);
  const intent = String(data.get('intent') ?? '');
  const targetId = LIKE_INTENTS.has(intent) ? String(data.get('id') ?? '') : String(data.get('parent') ?? '');
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  if (button) { button.disabled = true; button.setAttribute('aria-busy', 'true'); }
  const answer = await fetchPage(form.action, { method: 'POST', body: new URLSearchParams(data as unknown as Record<string, string>) });
  if (button) { button.disabled = false; button.removeAttribute('aria-busy'); }
  if (!answer) return HTMLFormElement.prototype.submit.call(form);
  if (!answer.ok) {
    if (!showRefusal(form, answer.doc)) HTMLFormElement.prototype.submit.call(form);
    return;
  }
  const fresh = answer.doc.getElementById(`c-${targetId}`);
  const current = document.getElementById(`c-${targetId}`);
  if (!fresh || !current) return HTMLFormElement.prototype.submit.call(form);
  const replacement = document.importNode(fresh, true) as HTMLElement;
  current.replaceWith(replacement);
  if (LIKE_INTENTS.has(intent)) {
    replacement.querySelector<HTMLButtonElement>(':scope > .c-actions .c-like')?.focus();
  } else {
    // The new reply is the thread's last (replies are oldest first, and the answer lists them all).
    const replies = replacement.querySelectorAll<HTMLElement>(':scope > .c-replies > .c-item');
    const last = replies[replies.length - 1];
    if (last) focusBlock(last);
  }
}

async function loadMore(link: HTMLAnchorElement, list: HTMLElement): Promise<void> {
  link.setAttribute('aria-busy', 'true');
  const answer = await fetchPage(link.href);
  link.removeAttribute('aria-busy');
  if (!answer?.ok) { window.location.href = link.href; return; }
  const items = [...answer.doc.querySelectorAll<HTMLElement>('#comments > .c-item')];
  const known = new Set([...list.querySelectorAll(':scope > .c-item')].map((n) => n.id));
  const added = items.filter((n) => !known.has(n.id)).map((n) => document.importNode(n, true) as HTMLElement);
  list.append(...added);
  const next = answer.doc.querySelector<HTMLAnchorElement>('.c-pages a[rel="next"]');
  if (next) link.href = next.href;
  else link.remove();
  if (added[0]) focusBlock(added[0]);
}

/** Enhances the comments page under `root` (the page's container). */
export function enhanceComments(root: HTMLElement): void {
  if (!window.fetch || !window.DOMParser) return;
  root.addEventListener('submit', (event) => {
    const form = event.target as HTMLFormElement;
    const intent = form.querySelector<HTMLInputElement>('input[name="intent"]')?.value ?? '';
    const isReply = intent === 'post' && form.querySelector('input[name="parent"]') !== null;
    if (!LIKE_INTENTS.has(intent) && !isReply) return;
    event.preventDefault();
    void submitInPlace(form);
  });
  const list = root.querySelector<HTMLElement>('#comments');
  const next = root.querySelector<HTMLAnchorElement>('.c-pages a[rel="next"]');
  // From the first page, "older comments" becomes "load more", appending below (a later page,
  // reached by its URL, keeps its plain newer/older links).
  if (!list || !next || root.querySelector('.c-pages a[rel="prev"]')) return;
  if (next.dataset.moreLabel) next.textContent = next.dataset.moreLabel;
  next.addEventListener('click', (event) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    void loadMore(next, list);
  });
}
