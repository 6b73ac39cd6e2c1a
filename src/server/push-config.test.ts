import { describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { readPush } from './config.mjs';

describe('web push settings (VAPID_*, PUSH_ENDPOINT_HOSTS)', () => {
  const pair = webpush.generateVAPIDKeys();
  it('none set: no keys (a demo makes its own, production has no push) and no extra hosts', () => {
    expect(readPush({})).toEqual({ vapid: null, endpointHosts: [] });
  });
  it('takes a pair printed by web-push with a mailto: or https: subject', () => {
    expect(readPush({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey, VAPID_SUBJECT: 'mailto:ops@inkpass.example' }).vapid)
      .toEqual({ publicKey: pair.publicKey, privateKey: pair.privateKey, subject: 'mailto:ops@inkpass.example' });
    expect(readPush({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey, VAPID_SUBJECT: 'https://inkpass.example/contact' }).vapid?.subject).toBe('https://inkpass.example/contact');
  });
  it('refuses half a pair, a malformed key and a missing or wrong subject, naming the setting', () => {
    expect(() => readPush({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_SUBJECT: 'mailto:a@b.c' })).toThrow(/VAPID_PRIVATE_KEY/);
    expect(() => readPush({ VAPID_PRIVATE_KEY: pair.privateKey, VAPID_SUBJECT: 'mailto:a@b.c' })).toThrow(/VAPID_PUBLIC_KEY/);
    expect(() => readPush({ VAPID_PUBLIC_KEY: 'not a key', VAPID_PRIVATE_KEY: pair.privateKey, VAPID_SUBJECT: 'mailto:a@b.c' })).toThrow(/VAPID_PUBLIC_KEY/);
    expect(() => readPush({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey })).toThrow(/VAPID_SUBJECT/);
    expect(() => readPush({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey, VAPID_SUBJECT: 'http://inkpass.example' })).toThrow(/VAPID_SUBJECT/);
  });
  it('reads extra push hosts, lower-cased, and refuses what is not a host name', () => {
    expect(readPush({ PUSH_ENDPOINT_HOSTS: ' 127.0.0.1, *.Push.Example ' }).endpointHosts).toEqual(['127.0.0.1', '*.push.example']);
    expect(() => readPush({ PUSH_ENDPOINT_HOSTS: 'http://evil.example/' })).toThrow(/PUSH_ENDPOINT_HOSTS/);
  });
});
