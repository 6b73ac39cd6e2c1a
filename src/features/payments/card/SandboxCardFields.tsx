/**
 * The card sandbox's fields, as both checkouts show them (key packs and subscriptions): the
 * number grouped and the expiry's slash inserted while the reader types (card-format.ts), phone
 * keyboards and autofill told what each field is, and a refused field marked `aria-invalid`
 * with its message tied to it (`aria-describedby`). The inputs have no `name`: card data goes
 * to the sandbox's nonce call only, never into the checkout's own form.
 */
import { useLayoutEffect, useRef, type ChangeEvent } from 'react';
import { editCardNumber, editExpiry, formatCvv, type CardField, type FieldEdit } from './card-format';
import type { CardFields } from './card-widget';
import './card-fields.css';

export interface SandboxCardFieldsProps {
  /** Prefixes the fields' ids: `{idPrefix}-number`, `-expiry`, `-cvv` (cardFieldId). */
  idPrefix: string;
  card: CardFields;
  onChange: (card: CardFields) => void;
  /** The field refused (by the checks before the call or by the sandbox) and what to say. */
  invalid: { field: CardField; message: string } | null;
  labels: { legend: string; sandbox: string; number: string; expiry: string; cvv: string };
  className: string;
  rowClassName: string;
  hintClassName: string;
  /** The id of a message about the whole card (a declined payment), tied to the number field the reader types again. */
  describedBy?: string | null;
  /** Marks the number field as the dialog's first control (the subscription modal focuses it on opening). */
  first?: boolean;
}

export const cardFieldId = (idPrefix: string, field: CardField) => `${idPrefix}-${field}`;

export function SandboxCardFields(p: SandboxCardFieldsProps) {
  // Where the caret goes once React has written the formatted value.
  const caret = useRef<{ input: HTMLInputElement; at: number } | null>(null);
  useLayoutEffect(() => {
    const c = caret.current;
    caret.current = null;
    if (c && document.activeElement === c.input) c.input.setSelectionRange(c.at, c.at);
  });

  function edited(field: 'number' | 'expiry', e: ChangeEvent<HTMLInputElement>) {
    const input = e.currentTarget;
    const deleting = (e.nativeEvent as InputEvent).inputType?.startsWith('delete') ?? false;
    const next: FieldEdit = { value: input.value, caret: input.selectionStart ?? input.value.length };
    const out = (field === 'number' ? editCardNumber : editExpiry)(p.card[field], next, deleting);
    caret.current = { input, at: out.caret };
    p.onChange({ ...p.card, [field]: out.value });
  }

  const aria = (field: CardField) => p.invalid?.field === field
    ? { 'aria-invalid': true, 'aria-describedby': `${cardFieldId(p.idPrefix, field)}-error` }
    : field === 'number' && p.describedBy ? { 'aria-describedby': p.describedBy } : {};
  const error = (field: CardField) => p.invalid?.field === field && (
    <span id={`${cardFieldId(p.idPrefix, field)}-error`} className="card-field-error">{p.invalid.message}</span>
  );

  return (
    <fieldset className={p.className}>
      <legend>{p.labels.legend}</legend>
      <p className={p.hintClassName}>{p.labels.sandbox}</p>
      <label>
        {p.labels.number}
        <input
          id={cardFieldId(p.idPrefix, 'number')} type="text" inputMode="numeric" autoComplete="cc-number" autoCorrect="off" spellCheck={false}
          data-first={p.first ? true : undefined} value={p.card.number} onChange={(e) => edited('number', e)} {...aria('number')}
        />
        {error('number')}
      </label>
      <div className={p.rowClassName}>
        <label>
          {p.labels.expiry}
          <input
            id={cardFieldId(p.idPrefix, 'expiry')} type="text" inputMode="numeric" autoComplete="cc-exp" autoCorrect="off" spellCheck={false} placeholder="MM/YY"
            value={p.card.expiry} onChange={(e) => edited('expiry', e)} {...aria('expiry')}
          />
          {error('expiry')}
        </label>
        <label>
          {p.labels.cvv}
          <input
            id={cardFieldId(p.idPrefix, 'cvv')} type="text" inputMode="numeric" autoComplete="cc-csc" autoCorrect="off" spellCheck={false}
            value={p.card.cvv} onChange={(e) => p.onChange({ ...p.card, cvv: formatCvv(e.currentTarget.value) })} {...aria('cvv')}
          />
          {error('cvv')}
        </label>
      </div>
    </fieldset>
  );
}
