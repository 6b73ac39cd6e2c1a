/**
 * Hover and focus for InfoTip.astro's popovers; clicks, taps, Enter, Space and Escape are the
 * browser's own (popovertarget, popover="auto"). One listener set for the whole page.
 */
let started = false;

function tipOf(target: EventTarget | null): { button: HTMLElement; pop: HTMLElement } | null {
  const button = target instanceof Element ? target.closest<HTMLElement>('[data-info-tip]') : null;
  const pop = button ? document.getElementById(button.getAttribute('popovertarget') ?? '') : null;
  return button && pop ? { button, pop } : null;
}

function show(tip: { button: HTMLElement; pop: HTMLElement }) {
  // The source makes the button the popover's anchor, as a click on it would.
  if (!tip.pop.matches(':popover-open')) tip.pop.showPopover({ source: tip.button });
}

function hide(tip: { button: HTMLElement; pop: HTMLElement }) {
  if (tip.pop.matches(':popover-open')) tip.pop.hidePopover();
}

export function initInfoTips(): void {
  if (started || typeof HTMLElement.prototype.showPopover !== 'function') return;
  started = true;
  // Mouse only: a tap is a click, which the button's popovertarget already answers.
  document.addEventListener('pointerover', (e) => { const tip = e.pointerType === 'mouse' ? tipOf(e.target) : null; if (tip) show(tip); });
  document.addEventListener('pointerout', (e) => {
    const tip = e.pointerType === 'mouse' ? tipOf(e.target) : null;
    if (tip && document.activeElement !== tip.button && !tip.button.contains(e.relatedTarget as Node | null)) hide(tip);
  });
  document.addEventListener('focusin', (e) => { const tip = tipOf(e.target); if (tip) show(tip); });
  document.addEventListener('focusout', (e) => { const tip = tipOf(e.target); if (tip) hide(tip); });
}
