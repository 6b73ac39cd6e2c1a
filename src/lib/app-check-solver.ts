/**
 * Solves an ALTCHA challenge in the browser (loaded by app-check-client.ts on first use, so no
 * page that makes no money call downloads it). The work runs in a Web Worker, off the page's
 * thread; where a worker cannot start, it runs here, where each try is one awaited Web Crypto
 * call (PBKDF2 runs natively), so the page never waits more than a moment for it.
 */
import { solveChallenge, solveChallengeWorkers, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/pbkdf2';
import { altchaToken } from './app-check';

/**
 * One worker keeps the work off the page's thread; a second made solving slower, not faster, in
 * Chromium (docs/performance.md, "App check").
 */
const WORKERS = 1;
/** A solve that takes longer than this has gone wrong (a challenge takes well under a second). */
const TIMEOUT_MS = 30_000;

/** The token for a challenge; `workers: 0` solves on this thread (what bench/app-check.ts compares). */
export async function solveAltcha(challenge: Challenge, workers = WORKERS): Promise<string | null> {
  let solution: Solution | null;
  try {
    if (workers < 1) throw new Error('no workers');
    solution = await solveChallengeWorkers({
      challenge,
      concurrency: Math.max(1, Math.min(workers, navigator.hardwareConcurrency || 1)),
      createWorker: () => new Worker(new URL('./app-check.worker.ts', import.meta.url), { type: 'module' }),
      timeout: TIMEOUT_MS,
    });
  } catch {
    solution = await solveChallenge({ challenge, deriveKey, timeout: TIMEOUT_MS });
  }
  return solution ? altchaToken({ challenge, solution }) : null;
}
