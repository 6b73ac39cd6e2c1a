/**
 * Web push's pure rules (docs/notifications.md, "Web push"): which endpoints a browser may give
 * us (the server will POST to them, so only known push services: no request to an address the
 * reader chose), the keys' shape, time zones, quiet hours, the daily cap's day and the back-off.
 */

/** The push services browsers use (Chrome/Edge/Opera: FCM; Firefox: Mozilla; old Edge: WNS; Safari: Apple). */
export const PUSH_SERVICE_HOSTS: readonly string[] = ['fcm.googleapis.com', '*.push.services.mozilla.com', '*.notify.windows.com', 'web.push.apple.com', '*.push.apple.com'];
export const MAX_ENDPOINT_LENGTH = 2048;
/** At most this many pushes a reader is sent a day (UTC day). */
export const DAILY_PUSH_CAP = 5;
/** Quiet hours when a reader has not chosen: 22:00 to 08:00 in each subscription's zone. */
export const DEFAULT_QUIET = { enabled: true, startHour: 22, endHour: 8 } as const;
export type QuietHours = { enabled: boolean; startHour: number; endHour: number };

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

function hostMatches(host: string, pattern: string): boolean {
  if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1;
  return host === pattern;
}

/**
 * Whether the server may send pushes to `raw`: an https URL without credentials on a known push
 * service's host and its default port, or a host listed in `extraHosts` (PUSH_ENDPOINT_HOSTS:
 * any port; plain http only when that host is loopback, for tests' stand-ins).
 */
export function pushEndpointAllowed(raw: unknown, extraHosts: readonly string[] = []): boolean {
  if (typeof raw !== 'string' || raw.length > MAX_ENDPOINT_LENGTH || /\s/.test(raw)) return false;
  let url: URL;
  try { url = new URL(raw); } catch { return false; }
  if (url.username || url.password) return false;
  const host = url.hostname.toLowerCase();
  if (extraHosts.some((p) => hostMatches(host, p.replace(/^::1$/, '[::1]')))) {
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.test(host));
  }
  return url.protocol === 'https:' && url.port === '' && PUSH_SERVICE_HOSTS.some((p) => hostMatches(host, p));
}

/** Bytes of base64url text, or null when it is not base64url. */
function base64urlBytes(s: unknown, max: number): number | null {
  if (typeof s !== 'string' || s.length === 0 || s.length > max || !/^[A-Za-z0-9_-]+={0,2}$/.test(s)) return null;
  const body = s.replace(/=+$/, '');
  return Math.floor((body.length * 3) / 4);
}

/** A browser's P-256 public key (65 bytes uncompressed) and its 16-byte auth secret. */
export function pushKeysValid(p256dh: unknown, auth: unknown): boolean {
  return base64urlBytes(p256dh, 100) === 65 && base64urlBytes(auth, 32) === 16;
}

/** `zone` when it is an IANA zone this runtime knows, else `fallback`. */
export function validTimeZone(zone: unknown, fallback: string): string {
  if (typeof zone !== 'string' || zone.length === 0 || zone.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(zone)) return fallback;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return fallback;
  }
}

const hourFormats = new Map<string, Intl.DateTimeFormat>();
/** The hour of the day (0-23) at `now` (seconds) in `zone`. */
export function hourIn(zone: string, now: number): number {
  let f = hourFormats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', hourCycle: 'h23' });
    hourFormats.set(zone, f);
  }
  return Number(f.formatToParts(new Date(now * 1000)).find((p) => p.type === 'hour')?.value ?? 0) % 24;
}

/** Whether `now` falls in the quiet hours in `zone` (start inclusive, end exclusive; 22→8 wraps midnight). */
export function inQuietHours(quiet: QuietHours, zone: string, now: number): boolean {
  if (!quiet.enabled || quiet.startHour === quiet.endHour) return false;
  const h = hourIn(zone, now);
  return quiet.startHour < quiet.endHour ? h >= quiet.startHour && h < quiet.endHour : h >= quiet.startHour || h < quiet.endHour;
}

/** The cap's day: the UTC date (YYYY-MM-DD) of `now`. */
export function capDay(now: number): string {
  return new Date(now * 1000).toISOString().slice(0, 10);
}

/** After `failures` failures in a row (not 404/410), the subscription waits this long: 1 min, doubling, at most a day. */
export function pushBackoffSeconds(failures: number): number {
  return Math.min(86_400, 60 * 2 ** Math.min(20, Math.max(0, failures - 1)));
}

/** A short label of a browser from its User-Agent (for the reader's own list; never a fingerprint). */
export function deviceLabel(userAgent: string): string {
  const ua = userAgent.slice(0, 512);
  const browser = /Edg\//.test(ua) ? 'Edge' : /Firefox\//.test(ua) ? 'Firefox' : /Chrome\//.test(ua) ? 'Chrome' : /Safari\//.test(ua) ? 'Safari' : 'Browser';
  const os = /iPhone|iPad|iPod/.test(ua) ? 'iOS' : /Android/.test(ua) ? 'Android' : /Windows/.test(ua) ? 'Windows' : /Mac OS X/.test(ua) ? 'macOS' : /Linux/.test(ua) ? 'Linux' : '';
  return os ? `${browser} · ${os}` : browser;
}
