/**
 * The Web Worker that searches part of an ALTCHA challenge's counters (app-check-solver.ts starts
 * it): altcha-lib's worker protocol with the browser's native PBKDF2.
 */
import { handler } from 'altcha-lib/workers/shared';
import { deriveKey } from 'altcha-lib/algorithms/web/pbkdf2';

handler({ deriveKey });
