/**
 * Drag to reorder a draft's pages (the studio's draft page). Dropping a page on another sends
 * the dragged page's own move form with `action=move` and the target's position; the server
 * moves it (the pages between shift by one) and answers with the draft again. The Up and Down
 * buttons stay: keyboard and no-JavaScript users move pages with them.
 */
export function enhanceReorder(list: HTMLElement | null): void {
  if (!list) return;
  let dragged: HTMLElement | null = null;
  const clear = () => { for (const el of list.querySelectorAll('.is-drop-target')) el.classList.remove('is-drop-target'); };
  for (const item of list.querySelectorAll<HTMLElement>('[data-position]')) {
    item.draggable = true;
    item.addEventListener('dragstart', (e) => {
      dragged = item;
      item.classList.add('is-dragging');
      if (e.dataTransfer) {
        e.dataTransfer.effectAllowed = 'move';
        e.dataTransfer.setData('text/plain', item.dataset.position ?? '');
      }
    });
    item.addEventListener('dragend', () => {
      item.classList.remove('is-dragging');
      dragged = null;
      clear();
    });
    item.addEventListener('dragover', (e) => {
      if (!dragged || dragged === item) return;
      e.preventDefault();
      clear();
      item.classList.add('is-drop-target');
    });
    item.addEventListener('drop', (e) => {
      e.preventDefault();
      const form = dragged?.querySelector<HTMLFormElement>('form[data-move-form]');
      if (!dragged || dragged === item || !form) return;
      const hidden = (name: string, value: string) => Object.assign(document.createElement('input'), { type: 'hidden', name, value });
      form.append(hidden('action', 'move'), hidden('to', item.dataset.position ?? ''));
      form.submit();
    });
  }
  const hint = document.querySelector<HTMLElement>('[data-reorder-hint]');
  if (hint) hint.hidden = false;
}
