/**
 * The Pix QR countdown: what the widget shows each second until the charge expires
 * ("QR Code expirado! Gere um novo pagamento." once it has). Pure and browser-safe.
 */

export interface CountdownParts {
  expired: boolean;
  minutes: number;
  seconds: number;
  /** `MM:SS`; minutes keep growing past 99 rather than wrap. */
  text: string;
}

/**
 * Time left until `expiresAtMs`, rounded up to whole seconds: the widget shows 00:01 through the
 * last second and 00:00 exactly when the charge expires, never a negative time; timers fire late,
 * never early, so a tick less than a second late still shows its second. An expiry that is not a
 * number (a missing or unreadable `pix_expires_at`) counts as expired rather than "NaN:NaN".
 */
export function countdownParts(expiresAtMs: number, nowMs: number): CountdownParts {
  const left = expiresAtMs - nowMs;
  const total = Number.isFinite(left) && left > 0 ? Math.ceil(left / 1000) : 0;
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return {
    expired: total === 0,
    minutes,
    seconds,
    text: `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`,
  };
}
