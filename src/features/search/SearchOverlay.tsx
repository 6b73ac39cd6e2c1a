/**
 * Search overlay island: a modal dialog with an ARIA 1.2
 * combobox, suggestions as the reader types (debounced; stale answers aborted and ignored),
 * the listing's language filter with its at-least-one rule, and a submit that goes to the
 * listing. Escape collapses the list, then closes; a click outside closes; every open starts
 * with a reset form. Keyboard rules live in combobox.ts, request/answer rules in overlay.ts.
 */
import { useEffect, useId, useReducer, useRef, useState, type KeyboardEvent, type PointerEvent, type RefObject } from 'react';
import { useStore } from '@nanostores/react';
import { INITIAL_COMBO, comboReducer, enterEffect, escapeEffect, keyAction } from './combobox';
import {
  SUGGEST_DEBOUNCE_MS, countMessage, defaultLanguages, parseSuggestions, submitHref, suggestUrl, toggleLanguage,
  type LanguageCode, type Languages, type OverlayConfig, type Suggestion,
} from './overlay';
import { $overlay, closeOverlay } from './overlay-store';
import { LISTING_PATH } from '~/lib/paths';

export function SearchOverlay(props: OverlayConfig) {
  const state = useStore($overlay);
  if (!state.open) return null;
  // A new key per open: the form, filters and suggestions start from scratch (spec: "its form resets").
  return <Dialog key={state.session} {...props} initialText={state.text} onClosed={state.onClose} />;
}

type Status = 'idle' | 'loading' | 'results' | 'empty' | 'error';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * While the dialog is open, the page behind it is inert (no focus, no clicks, hidden from
 * assistive technology) and does not scroll. On close the page comes back first, then
 * `onClosed` runs (it returns focus to the opener, which must not be inert by then).
 */
function useModalBackground(panel: RefObject<HTMLElement | null>, onClosed: (() => void) | undefined) {
  useEffect(() => {
    const host = panel.current?.closest('#search-overlay-root');
    const changed: Element[] = [];
    for (const el of Array.from(document.body.children)) {
      if (el === host || el.hasAttribute('inert') || el.tagName === 'SCRIPT') continue;
      el.setAttribute('inert', '');
      changed.push(el);
    }
    const root = document.documentElement;
    const overflow = root.style.overflow;
    root.style.overflow = 'hidden';
    return () => {
      for (const el of changed) el.removeAttribute('inert');
      root.style.overflow = overflow;
      onClosed?.();
    };
    // Mount and unmount only: onClosed belongs to this open.
  }, []);
}

function Dialog({ site, locale, messages: m, initialText, onClosed }: OverlayConfig & { initialText: string; onClosed?: () => void }) {
  const id = useId();
  const listId = `${id}-list`;
  const optionId = (i: number) => `${id}-opt-${i}`;
  const panel = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState(initialText);
  const [languages, setLanguages] = useState<Languages>(() => defaultLanguages(site));
  const [items, setItems] = useState<Suggestion[]>([]);
  const [status, setStatus] = useState<Status>('idle');
  const [combo, dispatch] = useReducer(comboReducer, INITIAL_COMBO);
  const seq = useRef(0);
  const inflight = useRef<AbortController | null>(null);

  useModalBackground(panel, onClosed);

  useEffect(() => {
    const el = input.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);

  // Suggestions: below 2 characters clear at once and send nothing; otherwise wait for a pause in
  // typing, abort the previous request, and drop any answer that is not for the latest input.
  useEffect(() => {
    const url = suggestUrl(text, languages);
    const mine = ++seq.current;
    inflight.current?.abort();
    inflight.current = null;
    if (!url) {
      setItems([]);
      setStatus('idle');
      dispatch({ type: 'clear' });
      return;
    }
    const timer = setTimeout(async () => {
      const controller = new AbortController();
      inflight.current = controller;
      setStatus((s) => (s === 'results' ? s : 'loading'));
      try {
        const res = await fetch(url, { signal: controller.signal, headers: { Accept: 'application/json' } });
        if (mine !== seq.current) return;
        // 404 is the endpoint's "no results" answer.
        const list = res.status === 404 ? [] : res.ok ? parseSuggestions(await res.json()) : null;
        if (mine !== seq.current) return;
        if (!list) throw new Error(`suggestions answered ${res.status}`);
        setItems(list);
        setStatus(list.length ? 'results' : 'empty');
        dispatch({ type: 'results', count: list.length });
      } catch {
        if (controller.signal.aborted || mine !== seq.current) return;
        setItems([]);
        setStatus('error');
        dispatch({ type: 'clear' });
      } finally {
        if (inflight.current === controller) inflight.current = null;
      }
    }, SUGGEST_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, languages]);

  useEffect(() => () => inflight.current?.abort(), []);

  useEffect(() => {
    if (combo.active >= 0) document.getElementById(optionId(combo.active))?.scrollIntoView({ block: 'nearest' });
    // optionId only depends on the stable useId value.
  }, [combo.active]);

  const go = (item: Suggestion | undefined) => {
    if (item) location.assign(item.link);
  };

  const onInputKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.nativeEvent.isComposing) return;
    const action = keyAction(e.key);
    if (action) {
      e.preventDefault();
      // After Escape collapsed the list, an arrow key shows the last suggestions again.
      if (!combo.expanded && items.length) dispatch({ type: 'results', count: items.length });
      dispatch(action);
      return;
    }
    if (e.key === 'Enter') {
      const effect = enterEffect(combo);
      if (effect !== 'submit') {
        e.preventDefault();
        go(items[effect.open]);
      }
      // Otherwise the form submits (onSubmit).
    }
  };

  const onPanelKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      if (escapeEffect(combo) === 'collapse') dispatch({ type: 'collapse' });
      else closeOverlay();
      return;
    }
    if (e.key !== 'Tab' || !panel.current) return;
    // Focus stays inside the modal dialog: Tab from the last control wraps to the first and back.
    const focusable = Array.from(panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => el.offsetParent !== null || el === document.activeElement);
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (e.shiftKey && (document.activeElement === first || !panel.current.contains(document.activeElement))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  const onBackdropPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.target === e.currentTarget) {
      e.preventDefault();
      closeOverlay();
    }
  };

  const onLanguage = (code: LanguageCode, on: boolean) => setLanguages((l) => toggleLanguage(l, code, on));

  const showList = combo.expanded && items.length > 0;
  const announcement =
    status === 'results' ? countMessage({ one: m.resultsOne, other: m.resultsOther }, items.length, locale)
    : status === 'empty' ? m.noResults
    : status === 'error' ? m.error
    : '';
  const line = status === 'empty' ? m.noResults : status === 'error' ? m.error : status === 'idle' && text.trim() ? m.hint : '';

  return (
    <div className="so-backdrop" onPointerDown={onBackdropPointerDown}>
      <div ref={panel} className="so-panel" role="dialog" aria-modal="true" aria-label={m.dialogLabel} onKeyDown={onPanelKeyDown}>
        <form
          className="so-form"
          role="search"
          action={LISTING_PATH}
          method="get"
          onSubmit={(e) => {
            e.preventDefault();
            location.assign(submitHref(text, languages, site));
          }}
        >
          <div className="so-field">
            <label className="visually-hidden" htmlFor={`${id}-q`}>{m.inputLabel}</label>
            <input
              ref={input}
              id={`${id}-q`}
              name="q"
              type="text"
              inputMode="search"
              enterKeyHint="search"
              role="combobox"
              aria-autocomplete="list"
              aria-expanded={showList}
              aria-controls={listId}
              aria-activedescendant={showList && combo.active >= 0 ? optionId(combo.active) : undefined}
              aria-describedby={line ? `${id}-line` : undefined}
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              maxLength={100}
              placeholder={m.placeholder}
              value={text}
              onChange={(e) => setText(e.target.value)}
              onKeyDown={onInputKeyDown}
            />
            <button className="so-submit" type="submit" aria-label={m.submit}>
              <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true"><circle cx="10.5" cy="10.5" r="6.5" fill="none" stroke="currentColor" strokeWidth="2.2" /><path d="m15.5 15.5 5 5" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" /></svg>
            </button>
            <button className="so-close" type="button" aria-label={m.close} onClick={() => closeOverlay()}>
              <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true"><path d="M6 6l12 12M18 6 6 18" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" /></svg>
            </button>
          </div>
          <fieldset className="so-langs">
            <legend>{m.languagesLabel}</legend>
            <label><input type="checkbox" name="lang" value="en" checked={languages.en} onChange={(e) => onLanguage('en', e.target.checked)} /> {m.languageEn}</label>
            <label><input type="checkbox" name="lang" value="pt" checked={languages.pt} onChange={(e) => onLanguage('pt', e.target.checked)} /> {m.languagePt}</label>
          </fieldset>
          <ul className="so-list" id={listId} role="listbox" aria-label={m.suggestionsLabel} hidden={!showList} aria-busy={status === 'loading'}>
            {showList && items.map((item, i) => (
              <li
                key={item.link}
                id={optionId(i)}
                role="option"
                aria-selected={i === combo.active}
                className="so-option"
                onPointerMove={() => dispatch({ type: 'hover', index: i })}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => go(item)}
              >
                {item.thumbnail
                  ? <img className="so-thumb" src={item.thumbnail} width={70} height={100} alt="" decoding="async" />
                  : <span className="so-thumb" aria-hidden="true" />}
                <span className="so-text">
                  <span className="so-name">{item.name}</span>
                  {item.excerpt && <span className="so-excerpt">{item.excerpt}</span>}
                  {item.siteIds.length > 0 && !item.siteIds.includes(site) && <span className="so-site">{m.otherSite}</span>}
                </span>
              </li>
            ))}
          </ul>
          {line && <p className="so-line" id={`${id}-line`}>{line}</p>}
          <div className="visually-hidden" role="status" aria-live="polite" aria-atomic="true">{announcement}</div>
        </form>
      </div>
    </div>
  );
}
