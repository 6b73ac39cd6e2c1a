/**
 * One owner per stateful money record (docs/money-states.md): every write of an order, a
 * subscription charge, a subscription or a rental is found in the source, and each must sit in
 * its owner's repository function, called only from the owner. A write anywhere else — the way
 * commerce once set a subscription ACTIVE behind its owner's back — fails here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '..');
const SCAN = ['src', 'scripts', 'bench', 'db/seed'];

function files(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? files(p) : /\.(ts|mjs|astro)$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [p] : [];
  });
}

/** The exported function a line sits in (the last `export … function name` above it). */
function functionAt(lines: string[], index: number): string | null {
  for (let i = index; i >= 0; i--) {
    const m = /^export (?:async )?function (\w+)/.exec(lines[i]!);
    if (m) return m[1]!;
  }
  return null;
}

interface Write { file: string; fn: string | null; table: string; line: number }

function writesOf(tables: readonly string[]): Write[] {
  const out: Write[] = [];
  const pattern = new RegExp(`(updateTable|insertInto|deleteFrom)\\('(${tables.join('|')})'\\)`);
  for (const dir of SCAN) {
    for (const file of files(path.join(ROOT, dir))) {
      const lines = fs.readFileSync(file, 'utf8').split('\n');
      lines.forEach((l, i) => {
        const m = pattern.exec(l);
        if (m) out.push({ file: path.relative(ROOT, file), fn: functionAt(lines, i), table: m[2]!, line: i + 1 });
      });
    }
  }
  return out;
}

/** Where each table may be written: file → the repository functions allowed to. */
const OWNERS: Record<string, { file: string; fns: string[] }> = {
  orders: { file: 'src/features/commerce/repository.server.ts', fns: ['insertOrder', 'changeOrder'] },
  subscription_charges: { file: 'src/features/commerce/repository.server.ts', fns: ['insertChargeOnce', 'changeCharge', 'claimCardCharge'] },
  subscriptions: { file: 'src/features/subscriptions/repository.server.ts', fns: ['insertSubscription', 'changeSubscription', 'setPaymentToken', 'forgetPaymentTokens'] },
  rentals: { file: 'src/features/wallet/repository.server.ts', fns: ['insertRental'] },
  refunds: { file: 'src/features/commerce/repository.server.ts', fns: ['insertRefund', 'changeRefund'] },
  refunds_due: { file: 'src/features/commerce/repository.server.ts', fns: ['insertRefundDue', 'resolveRefundDue'] },
};

/** Who may call the repository functions that change a state column: the owner's one guarded move. */
const MOVERS: Record<string, string> = {
  changeOrder: 'src/features/commerce/payables.server.ts',
  changeCharge: 'src/features/commerce/payables.server.ts',
  changeSubscription: 'src/features/subscriptions/moves.server.ts',
  changeRefund: 'src/features/commerce/refunds.server.ts',
  resolveRefundDue: 'src/features/commerce/refunds.server.ts',
};

describe('one owner per stateful money record', () => {
  const writes = writesOf(Object.keys(OWNERS));

  it('finds the writes it checks', () => {
    expect(writes.length).toBeGreaterThanOrEqual(7);
  });

  it.each(Object.entries(OWNERS))('%s is written only by its owner\'s repository functions', (table, owner) => {
    const stray = writes.filter((w) => w.table === table && (w.file !== owner.file || !owner.fns.includes(w.fn ?? '')));
    expect(stray.map((w) => `${w.file}:${w.line} (${w.fn ?? 'top level'})`)).toEqual([]);
  });

  it.each(Object.entries(MOVERS))('%s is called only by the owner\'s guarded move', (fn, mover) => {
    const callers: string[] = [];
    for (const dir of SCAN) {
      for (const file of files(path.join(ROOT, dir))) {
        const rel = path.relative(ROOT, file);
        if (rel.endsWith('repository.server.ts') || rel.endsWith('.typecheck.ts')) continue;
        const text = fs.readFileSync(file, 'utf8');
        if (new RegExp(`\\b${fn}\\(`).test(text)) callers.push(rel);
      }
    }
    expect(callers).toEqual([mover]);
  });

  it('a state column is set only through a from-state guard', () => {
    for (const [fn, table] of [['changeOrder', 'orders'], ['changeCharge', 'subscription_charges'], ['changeSubscription', 'subscriptions'], ['changeRefund', 'refunds']] as const) {
      const owner = OWNERS[table]!;
      const text = fs.readFileSync(path.join(ROOT, owner.file), 'utf8');
      const body = text.slice(text.indexOf(`export async function ${fn}(`), text.indexOf('\n}\n', text.indexOf(`export async function ${fn}(`)));
      expect(body, `${fn} updates only where the state is still the one it was read in`).toMatch(/\.where\('state', '=', from\)/);
    }
  });
});
