/** The email digest's pure rules (docs/notifications.md, "Email digest"). */
export type Frequency = 'off' | 'daily' | 'weekly';
export const FREQUENCIES: readonly Frequency[] = ['off', 'daily', 'weekly'];

/**
 * What the settings form's digest controls mean (no script): the frequency radios (`digest`) and
 * the "New chapters by Email" box (`box`), against what was saved (`was`). The control the reader
 * changed wins: a frequency chosen is taken (the box follows it); the box checked with the
 * frequency left at Off turns the digest on daily, unchecked turns it off.
 */
export function digestChoice(input: { digest: string | null; box: boolean; was: Frequency }): Frequency {
  const chosen = FREQUENCIES.includes(input.digest as Frequency) ? (input.digest as Frequency) : input.was;
  if (chosen !== input.was) return chosen;
  const boxWas = input.was !== 'off';
  if (input.box !== boxWas) return input.box ? 'daily' : 'off';
  return chosen;
}

