import { describe, expect, it } from 'vitest';
import { capDay, deviceLabel, inQuietHours, pushBackoffSeconds, pushEndpointAllowed, pushKeysValid, validTimeZone } from './push-rules';

describe('push endpoints (the server POSTs to them: known push services only)', () => {
  it('takes the browsers\' push services over https', () => {
    expect(pushEndpointAllowed('https://fcm.googleapis.com/fcm/send/abc:def')).toBe(true);
    expect(pushEndpointAllowed('https://updates.push.services.mozilla.com/wpush/v2/gAAA')).toBe(true);
    expect(pushEndpointAllowed('https://db5p.notify.windows.com/w/?token=x')).toBe(true);
    expect(pushEndpointAllowed('https://web.push.apple.com/QGuQ')).toBe(true);
    expect(pushEndpointAllowed('https://api.push.apple.com/3/device/x')).toBe(true);
  });
  it('refuses anything else: metadata addresses, other hosts, look-alikes, http, ports, credentials', () => {
    for (const bad of [
      'http://169.254.169.254/latest/meta-data/', 'https://169.254.169.254/', 'https://evil.example/push', 'http://fcm.googleapis.com/fcm/send/x',
      'https://fcm.googleapis.com.evil.example/x', 'https://evilfcm.googleapis.com/x', 'https://push.services.mozilla.com.evil/x', 'https://fcm.googleapis.com:8443/x',
      'https://user:pw@fcm.googleapis.com/x', 'http://127.0.0.1:9999/push', 'file:///etc/passwd', 'javascript:alert(1)', '', 42, null, `https://fcm.googleapis.com/${'a'.repeat(2100)}`,
    ]) expect(pushEndpointAllowed(bad), String(bad).slice(0, 60)).toBe(false);
  });
  it('a listed loopback stand-in is taken over http; a listed other host only over https', () => {
    expect(pushEndpointAllowed('http://127.0.0.1:43210/push/abc', ['127.0.0.1'])).toBe(true);
    expect(pushEndpointAllowed('http://169.254.169.254/', ['127.0.0.1'])).toBe(false);
    expect(pushEndpointAllowed('http://push.example/x', ['push.example'])).toBe(false);
    expect(pushEndpointAllowed('https://a.push.example/x', ['*.push.example'])).toBe(true);
  });
});

describe('push rules', () => {
  it('keys: a 65-byte P-256 point and a 16-byte secret, base64url', () => {
    const p = Buffer.alloc(65, 4).toString('base64url');
    const a = Buffer.alloc(16, 1).toString('base64url');
    expect(pushKeysValid(p, a)).toBe(true);
    expect(pushKeysValid(p.slice(2), a)).toBe(false);
    expect(pushKeysValid(p, `${a}AAAA`)).toBe(false);
    expect(pushKeysValid('<script>', a)).toBe(false);
  });
  it('time zones: IANA names kept, anything else falls back', () => {
    expect(validTimeZone('America/Sao_Paulo', 'UTC')).toBe('America/Sao_Paulo');
    expect(validTimeZone('Mars/Olympus', 'UTC')).toBe('UTC');
    expect(validTimeZone('../../etc', 'America/Sao_Paulo')).toBe('America/Sao_Paulo');
    expect(validTimeZone(7, 'UTC')).toBe('UTC');
  });
  it('quiet hours wrap midnight and are read in the zone', () => {
    const q = { enabled: true, startHour: 22, endHour: 8 };
    const at = (iso: string) => Date.parse(iso) / 1000;
    expect(inQuietHours(q, 'UTC', at('2026-12-01T23:00:00Z'))).toBe(true);
    expect(inQuietHours(q, 'UTC', at('2026-12-01T07:59:00Z'))).toBe(true);
    expect(inQuietHours(q, 'UTC', at('2026-12-01T08:00:00Z'))).toBe(false);
    expect(inQuietHours(q, 'UTC', at('2026-12-01T21:59:00Z'))).toBe(false);
    // 02:00 UTC is 23:00 in São Paulo (UTC-3): quiet there; 12:00 UTC is 09:00 there: not.
    expect(inQuietHours(q, 'America/Sao_Paulo', at('2026-12-01T02:00:00Z'))).toBe(true);
    expect(inQuietHours(q, 'America/Sao_Paulo', at('2026-12-01T12:00:00Z'))).toBe(false);
    expect(inQuietHours({ ...q, enabled: false }, 'UTC', at('2026-12-01T23:00:00Z'))).toBe(false);
    expect(inQuietHours({ enabled: true, startHour: 1, endHour: 5 }, 'UTC', at('2026-12-01T03:00:00Z'))).toBe(true);
  });
  it('the cap day is the UTC date; the back-off doubles from a minute to a day', () => {
    expect(capDay(Date.parse('2026-12-01T23:59:59Z') / 1000)).toBe('2026-12-01');
    expect([1, 2, 3, 30].map(pushBackoffSeconds)).toEqual([60, 120, 240, 86_400]);
  });
  it('device labels', () => {
    expect(deviceLabel('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36')).toBe('Chrome · Linux');
    expect(deviceLabel('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1')).toBe('Safari · iOS');
  });
});
