/**
 * Upload progress for the studio's page uploads (a chapter may be 300 MB): with JavaScript the
 * form is sent by XMLHttpRequest, because fetch cannot report how much of a request body has
 * gone, and its progress bar and percentage follow. The answer is then followed as the browser
 * would have: the page a redirect leads to is opened; a refusal's page (its message, the form)
 * replaces this one. Without JavaScript, or if anything here fails, the form posts as usual.
 */
export function enhanceUploads(root: ParentNode = document): void {
  for (const ui of root.querySelectorAll<HTMLElement>('[data-upload-progress]')) {
    const form = ui.closest('form');
    if (!form || form.dataset.uploadEnhanced) continue;
    form.dataset.uploadEnhanced = '1';
    const bar = ui.querySelector('progress')!;
    const status = ui.querySelector<HTMLElement>('[data-upload-status]')!;
    const percent = new Intl.NumberFormat(document.documentElement.lang || undefined, { style: 'percent' });
    form.addEventListener('submit', (event) => {
      if (event.defaultPrevented) return;
      event.preventDefault();
      const buttons = [...form.querySelectorAll<HTMLButtonElement>('button[type="submit"], button:not([type])')];
      const xhr = new XMLHttpRequest();
      xhr.open('POST', form.action);
      xhr.upload.addEventListener('progress', (e) => {
        if (!e.lengthComputable) return;
        bar.value = e.loaded / e.total;
        status.textContent = `${ui.dataset.sending} ${percent.format(Math.floor((e.loaded / e.total) * 100) / 100)}`;
      });
      xhr.upload.addEventListener('load', () => { status.textContent = ui.dataset.checking ?? ''; });
      xhr.addEventListener('load', () => {
        if (xhr.status >= 200 && xhr.status < 300 && xhr.responseURL) {
          location.assign(xhr.responseURL);
          return;
        }
        // A refusal: its page, with the message beside the form, replaces this one.
        document.open();
        document.write(xhr.responseText);
        document.close();
      });
      xhr.addEventListener('error', () => {
        status.textContent = ui.dataset.failed ?? '';
        for (const b of buttons) b.disabled = false;
      });
      for (const b of buttons) b.disabled = true;
      ui.hidden = false;
      bar.value = 0;
      status.textContent = ui.dataset.sending ?? '';
      xhr.send(new FormData(form));
    });
  }
}
