#!/usr/bin/env node
// `npm test`: build once, then unit (vitest), integration (vitest, real HTTP on SQLite and
// PostgreSQL) and end-to-end (Playwright in Chromium) tests, one after the other, with their
// output streamed. Ends with a summary and a last line "N passed, M failed"; exits non-zero if
// any step failed or if no test ran at all. See docs/testing.md.
//
//   SKIP_BUILD=1      use the existing dist/ (fails fast if there is none)
//   ONLY=unit,e2e     run only some steps (typecheck, unit, integration, e2e)
//   INKPASS_IT_DIALECTS=sqlite   integration tests on one dialect only
// The Node check first: a too-old Node should say so, not fail inside a native module.
import './check-node.mjs';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const REPORTS = path.join(ROOT, 'data/test-reports');
const started = Date.now();

/** Upper bounds per step, so a hung server cannot hold CI for long (guards, not the 20-minute budget). */
// Measured on the 2-core machine (2026-11-27): integration 8–10 min, e2e 20–24 (docs/testing.md);
// issue 29 added cluster, S3, metrics and error-report servers to the integration step.
const LIMITS = { typecheck: 4 * 60_000, build: 6 * 60_000, unit: 4 * 60_000, integration: 20 * 60_000, e2e: 32 * 60_000 };

const only = (process.env.ONLY ?? '').split(',').map((s) => s.trim()).filter(Boolean);
const wanted = (step) => !only.length || only.includes(step);

fs.mkdirSync(REPORTS, { recursive: true });

/**
 * Runs a command in its own process group; resolves with its exit code. Its output is inherited,
 * or, with `prefix`, piped line by line with the prefix (for steps whose parts run side by side).
 */
function run(label, cmd, args, { env = {}, timeoutMs, prefix }) {
  return new Promise((resolve) => {
    console.log(`\n━━━ ${label}: ${[cmd, ...args].join(' ')}\n`);
    const child = spawn(cmd, args, { cwd: ROOT, stdio: prefix ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: { ...process.env, ...env }, detached: true });
    if (prefix) for (const [from, to] of [[child.stdout, process.stdout], [child.stderr, process.stderr]]) prefixLines(from, to, prefix);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      console.error(`\n[test] ${label} took longer than ${timeoutMs / 60_000} min; stopping it.`);
      killGroup(child.pid, 'SIGTERM');
      setTimeout(() => killGroup(child.pid, 'SIGKILL'), 10_000).unref();
    }, timeoutMs);
    const forward = (sig) => killGroup(child.pid, sig);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('error', (e) => {
      console.error(`[test] ${label}: ${e.message}`);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve({ code: code ?? (signal ? 128 : 1), timedOut });
    });
  });
}

/** Copies a stream line by line, each line with the prefix. */
function prefixLines(from, to, prefix) {
  let rest = '';
  from.setEncoding('utf8');
  from.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop();
    if (lines.length) to.write(lines.map((l) => `${prefix} ${l}\n`).join(''));
  });
  from.on('end', () => { if (rest) to.write(`${prefix} ${rest}\n`); });
}

function killGroup(pid, signal) {
  try { process.kill(-pid, signal); } catch { /* already gone */ }
}

/**
 * Test servers a stopped step left running: Playwright's web server and the integration harness's
 * servers run in their own process groups, so stopping a step that timed out orphans them (and
 * the next run finds the port taken). Matched by this checkout, scripts/serve.mjs and a test
 * database, never a developer's own `npm start`. Linux (/proc); elsewhere a no-op.
 */
function killStrayServers() {
  let pids = [];
  try { pids = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)); } catch { return; }
  for (const pid of pids) {
    try {
      if (fs.realpathSync(`/proc/${pid}/cwd`) !== ROOT) continue;
      if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('scripts/serve.mjs')) continue;
      const db = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').find((v) => v.startsWith('DATABASE_URL=')) ?? '';
      if (!/data\/e2e\.db|inkpass[-_]it[-_]/.test(db)) continue;
      process.kill(Number(pid), 'SIGKILL');
      console.error(`[test] stopped a test server left running (pid ${pid})`);
    } catch { /* gone, or not ours */ }
  }
}

function readJson(file) {
  try { return JSON.parse(fs.readFileSync(file, 'utf8')); } catch { return null; }
}

/**
 * Vitest's JSON reporter (jest-compatible shape). When a file fails without a failing test
 * (a beforeAll or the global setup threw, or the file did not load), Vitest reports its tests
 * as skipped: those count as failed here, since they could not run.
 */
function vitestCounts(file) {
  const r = readJson(file);
  if (!r || typeof r.numTotalTests !== 'number') return null;
  let passed = 0, failed = 0, skipped = 0, blocked = 0;
  for (const f of r.testResults ?? []) {
    const a = f.assertionResults ?? [];
    const p = a.filter((t) => t.status === 'passed').length;
    const x = a.filter((t) => t.status === 'failed').length;
    const rest = a.length - p - x;
    passed += p;
    failed += x;
    if (f.status === 'failed' && x === 0) {
      const n = Math.max(rest, 1);
      failed += n;
      blocked += n;
    } else skipped += rest;
  }
  return { passed, failed, skipped, note: blocked ? `${blocked} could not run: a setup hook failed or a file did not load` : '', failures: vitestFailures(r) };
}

/** The first line of an error message, without colour codes, shortened for the summary. */
function firstLine(message) {
  const line = String(message ?? '').replace(/\x1b\[[0-9;]*m/g, '').split('\n').map((l) => l.trim()).find(Boolean) ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/** Failed tests (or failed files) of a Vitest JSON report, as "file › test: first line of the error". */
function vitestFailures(r) {
  const out = [];
  for (const f of r.testResults ?? []) {
    const file = path.relative(ROOT, f.name ?? '');
    const failed = (f.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of failed) out.push(`${file} › ${t.fullName ?? t.title}: ${firstLine(t.failureMessages?.[0])}`);
    if (f.status === 'failed' && !failed.length) out.push(`${file}: ${firstLine(f.message) || 'the file failed without a failing test'}`);
  }
  return out;
}

/** Playwright's JSON reporter: stats.expected/unexpected/flaky/skipped. */
function playwrightCounts(file) {
  const r = readJson(file);
  if (!r?.stats) return null;
  const s = r.stats;
  const failures = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status !== 'unexpected') continue;
        const last = t.results?.at(-1);
        failures.push(`${spec.file}:${spec.line} › ${spec.title}: ${firstLine(last?.error?.message ?? last?.status)}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of r.suites ?? []) walk(suite);
  for (const e of r.errors ?? []) failures.push(`(outside a test): ${firstLine(e.message)}`);
  return { passed: (s.expected ?? 0) + (s.flaky ?? 0), failed: s.unexpected ?? 0, skipped: s.skipped ?? 0, failures };
}

const results = [];
/**
 * Records one step. A step that ends badly without a failing test (it timed out, crashed, or
 * exited non-zero before reporting) is marked stopped, with the reason: it counts no failed test,
 * since none failed, but the run still fails.
 */
function record(name, outcome, counts) {
  const c = counts ?? { passed: 0, failed: 0, skipped: 0 };
  const ok = outcome.code === 0 && !outcome.timedOut;
  const stopped = ok ? '' : outcome.timedOut ? 'timed out'
    : c.failed === 0 ? (counts ? `exited with ${outcome.code}` : `exited with ${outcome.code} before reporting tests`) : '';
  results.push({ name, ok, ...c, note: c.note ?? '', failures: c.failures ?? [], stopped });
}

/** A step that could not run at all (no build): stopped, not a failed test. */
function skip(name, why) {
  results.push({ name, ok: false, passed: 0, failed: 0, skipped: 0, note: '', stopped: why });
}

// 1. Build --------------------------------------------------------------------------------
let built = true;
if (process.env.SKIP_BUILD === '1') {
  if (!fs.existsSync(path.join(ROOT, 'dist/server/entry.mjs'))) {
    console.error('[test] SKIP_BUILD=1 but dist/server/entry.mjs does not exist; run `npx astro build` first.');
    built = false;
  } else {
    console.log('[test] SKIP_BUILD=1: using the existing dist/');
  }
} else if (wanted('integration') || wanted('e2e')) {
  const b = await run('build', 'npx', ['astro', 'build'], { timeoutMs: LIMITS.build });
  built = b.code === 0 && !b.timedOut;
  if (!built) results.push({ name: 'build', ok: false, passed: 0, failed: 0, skipped: 0, note: '', stopped: b.timedOut ? 'timed out' : `exited with ${b.code}` });
}

// 2. Types: strict TypeScript over .ts and .astro files (one failure if any error) -----
if (wanted('typecheck')) {
  const r = await run('typecheck', 'npx', ['astro', 'check'], { timeoutMs: LIMITS.typecheck });
  // Type errors are the check failing (one failure); a check that timed out is stopped.
  record('typecheck', r, r.timedOut ? null : r.code === 0 ? { passed: 1, failed: 0, skipped: 0, note: 'astro check: no errors' }
    : { passed: 0, failed: 1, skipped: 0, note: 'astro check reported errors' });
}

// 2b. Unit ----------------------------------------------------------------------------------
if (wanted('unit')) {
  const out = path.join(REPORTS, 'vitest-unit.json');
  fs.rmSync(out, { force: true });
  const r = await run('unit', 'npx', ['vitest', 'run', '--project', 'unit', '--passWithNoTests',
    '--reporter=default', '--reporter=json', `--outputFile.json=${out}`], { timeoutMs: LIMITS.unit });
  record('unit', r, vitestCounts(out));
}

// 3. Integration ---------------------------------------------------------------------------
// One Vitest run per dialect, side by side: each keeps its files one at a time against its own
// server, and together they use the two cores that one run leaves half idle (it waits on HTTP).
if (wanted('integration')) {
  if (!built) skip('integration', 'not run: no build');
  else {
    const dialects = (process.env.INKPASS_IT_DIALECTS || 'sqlite,postgres').split(',').map((d) => d.trim()).filter(Boolean);
    const runs = await Promise.all(dialects.map((dialect) => {
      const out = path.join(REPORTS, `vitest-integration-${dialect}.json`);
      fs.rmSync(out, { force: true });
      return run(`integration (${dialect})`, 'npx', ['vitest', 'run', '--project', 'integration',
        '--reporter=default', '--reporter=json', `--outputFile.json=${out}`],
      { env: { INKPASS_IT_DIALECTS: dialect }, timeoutMs: LIMITS.integration, prefix: `[${dialect}]` }).then((r) => {
        const counts = vitestCounts(out);
        return { r, counts: counts && { ...counts, dialect } };
      });
    }));
    const failed = runs.find(({ r }) => r.code !== 0 || r.timedOut);
    const counts = runs.every(({ counts }) => counts) ? runs.reduce((a, { counts: c }) => ({
      passed: a.passed + c.passed, failed: a.failed + c.failed, skipped: a.skipped + c.skipped, note: [a.note, c.note].filter(Boolean).join('; '),
      failures: [...a.failures, ...c.failures.map((f) => `[${c.dialect}] ${f}`)],
    }), { passed: 0, failed: 0, skipped: 0, note: '', failures: [] }) : null;
    if (runs.some(({ r }) => r.timedOut)) killStrayServers();
    record('integration', failed?.r ?? runs[0].r, counts);
  }
}

// 4. End-to-end ----------------------------------------------------------------------------
if (wanted('e2e')) {
  if (!built) skip('e2e', 'not run: no build');
  else {
    const out = path.join(REPORTS, 'playwright.json');
    fs.rmSync(out, { force: true });
    const r = await run('e2e', 'npx', ['playwright', 'test', '--reporter=list,json'], {
      env: { PLAYWRIGHT_JSON_OUTPUT_NAME: out },
      timeoutMs: LIMITS.e2e,
    });
    if (r.timedOut) killStrayServers();
    record('e2e', r, playwrightCounts(out));
  }
}

// Summary ----------------------------------------------------------------------------------
const total = results.reduce((a, r) => ({ passed: a.passed + r.passed, failed: a.failed + r.failed, skipped: a.skipped + r.skipped }), { passed: 0, failed: 0, skipped: 0 });
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
console.log(`\n━━━ summary (${minutes} min)`);
for (const r of results) {
  const mark = r.ok ? 'ok  ' : r.stopped ? 'STOP' : 'FAIL';
  const why = [r.stopped && `stopped: ${r.stopped}`, r.note].filter(Boolean).join('; ');
  console.log(`  ${mark} ${r.name.padEnd(12)} ${String(r.passed).padStart(4)} passed ${String(r.failed).padStart(4)} failed ${String(r.skipped).padStart(4)} skipped${why ? `  (${why})` : ''}`);
}
// The failed tests by name, here at the end where a reader of the log's last lines sees them
// (the streamed output above can be tens of thousands of lines).
const failures = results.flatMap((r) => r.failures.map((f) => `${r.name}: ${f}`));
if (failures.length) {
  console.log('failed:');
  for (const f of failures.slice(0, 20)) console.log(`  ✘ ${f}`);
  if (failures.length > 20) console.log(`  … and ${failures.length - 20} more`);
}
const ran = total.passed + total.failed;
const stopped = results.filter((r) => r.stopped).map((r) => r.name);
const ok = results.every((r) => r.ok) && ran > 0 && total.failed === 0;
if (ran === 0) console.log('  no test ran');
// The last line stays "N passed, M failed" (CI reads it); a stopped step is named after it, and
// the exit code says the run failed.
console.log(`${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}${stopped.length ? `; stopped: ${stopped.join(', ')}` : ''}`);
process.exit(ok ? 0 : 1);
