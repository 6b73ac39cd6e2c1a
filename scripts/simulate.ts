/**
 * `npm run simulate -- [--seed N | --seeds K] [--ops N] [--dialect sqlite|postgres|both]`: the
 * seeded simulation (tests/simulation/simulation.ts, docs/testing.md "Seeded simulation").
 * Without --seed it runs seeds 1..K (20 by default) of --ops operations (10,000 by default) on
 * both databases. A failure prints its seed, operation, the invariant that broke and the command
 * that replays it exactly, and exits 1.
 */
import { runSimulation } from '../tests/simulation/simulation';
import { dropTemplates } from '../tests/simulation/world';
import type { Dialect } from '~/server/db';

function usage(problem: string): never {
  console.error(`${problem}\nusage: npm run simulate -- [--seed N | --seeds K] [--ops N] [--dialect sqlite|postgres|both]`);
  process.exit(2);
}

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const v = args[i + 1];
  if (v === undefined || v.startsWith('--')) usage(`--${name} needs a value`);
  return v;
};
const whole = (name: string, fallback: number, min: number): number => {
  const v = opt(name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < min) usage(`--${name} must be a whole number of at least ${min}`);
  return n;
};
for (const a of args) if (a.startsWith('--') && !['--seed', '--seeds', '--ops', '--dialect'].includes(a)) usage(`unknown option ${a}`);

const seedArg = opt('seed');
const seeds = seedArg !== undefined ? [whole('seed', 0, 0)] : Array.from({ length: whole('seeds', 20, 1) }, (_, i) => i + 1);
const ops = whole('ops', 10_000, 1);
const dialectArg = opt('dialect') ?? 'both';
if (!['sqlite', 'postgres', 'both'].includes(dialectArg)) usage('--dialect is sqlite, postgres or both');
const dialects: Dialect[] = dialectArg === 'both' ? ['sqlite', 'postgres'] : [dialectArg as Dialect];

let failed = 0;
const totals: Record<string, number> = {};
for (const dialect of dialects) {
  for (const seed of seeds) {
    const r = await runSimulation({ seed, ops, dialect });
    totals[dialect] = (totals[dialect] ?? 0) + r.seconds;
    if (r.ok) {
      console.log(`ok   ${dialect.padEnd(8)} seed ${seed}: ${ops} operations in ${r.seconds.toFixed(1)} s (${r.stats.crash ?? 0} crashes injected)`);
      continue;
    }
    failed++;
    const f = r.failure!;
    console.log(`FAIL ${dialect.padEnd(8)} seed ${seed}: at operation ${f.op} (${f.what}) after ${r.seconds.toFixed(1)} s`);
    console.log(`     invariant: ${f.invariant}`);
    console.log(`     ${f.detail.split('\n').slice(0, 12).join('\n     ')}`);
    console.log(`     replay: npm run simulate -- --seed ${seed} --ops ${ops} --dialect ${dialect}`);
  }
}
await dropTemplates();
for (const [d, s] of Object.entries(totals)) console.log(`${d}: ${seeds.length} seeds in ${s.toFixed(1)} s`);
console.log(failed ? `${failed} of ${seeds.length * dialects.length} runs failed` : `all ${seeds.length * dialects.length} runs clean`);
process.exit(failed ? 1 : 0);
