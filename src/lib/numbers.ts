/** Rounds to two decimals in decimal, not binary: 1.005 -> 1.01. */
export function round2(n: number): number {
  const r = Number(`${Math.round(Number(`${n}e2`))}e-2`);
  return Number.isFinite(r) ? r : Math.round(n * 100) / 100;
}
