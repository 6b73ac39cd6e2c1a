import { describe, expect, it } from 'vitest';
import { enqueueEmail, renderEmail, retryDelay, RETRY_MAX_SECONDS } from './outbox';
import { testDialects, useTestDatabase } from './test-databases';

describe('the outbox', () => {
  it('backs off exponentially from 30 s, never more than an hour apart', () => {
    expect([1, 2, 3, 4].map(retryDelay)).toEqual([30, 60, 120, 240]);
    expect(retryDelay(7)).toBe(1920);
    expect(retryDelay(8)).toBe(RETRY_MAX_SECONDS);
    expect(retryDelay(50)).toBe(RETRY_MAX_SECONDS);
  });

  it('renders the same words as text and escaped HTML, with the site name and the one link', () => {
    const m = renderEmail({ siteName: 'Inkpass', subject: 'Reset', paragraphs: ['Hi <b>Ana</b> & co'], action: { label: 'Go', url: 'https://x.test/a?b=1&c=2' }, footer: 'Why' });
    expect(m.subject).toBe('Reset · Inkpass');
    expect(m.text).toContain('Hi <b>Ana</b> & co');
    expect(m.text).toContain('https://x.test/a?b=1&c=2');
    expect(m.html).toContain('Hi &lt;b&gt;Ana&lt;/b&gt; &amp; co');
    expect(m.html).toContain('href="https://x.test/a?b=1&amp;c=2"');
    expect(m.html.match(/<a /g)).toHaveLength(1);
    expect(m.html).not.toMatch(/<img|<script/i);
  });

  it('renders a list of links and the settings link after the footer, in both parts', () => {
    const m = renderEmail({ siteName: 'Inkpass', subject: 'New', paragraphs: ['Hi'], list: [{ text: 'A <1>', url: 'https://x.test/1' }], footer: 'Why', footerLink: { label: 'Settings', url: 'https://x.test/s' } });
    expect(m.text).toContain('- A <1>\n  https://x.test/1');
    expect(m.text).toMatch(/--\nWhy\nSettings: https:\/\/x\.test\/s\n$/);
    expect(m.html).toContain('<a href="https://x.test/1" style="color:#1a1a1a">A &lt;1&gt;</a>');
    expect(m.html).toContain('href="https://x.test/s"');
    expect(m.html).not.toMatch(/<img|<script/i);
  });
});

for (const dialect of testDialects()) {
  describe(`queueing (${dialect})`, () => {
    const t = useTestDatabase(dialect);
    it('queues a message, and nothing for an address that cannot exist (a deleted account\'s)', async () => {
      const mail = (to: string) => ({ to, kind: 'receipt.PAYMENT_REFUNDED', ...renderEmail({ siteName: 'Inkpass', subject: 'Refund', paragraphs: ['Hi'], footer: 'Why' }) });
      await enqueueEmail(t.db, mail('ana@example.test'), 1_800_000_000);
      await enqueueEmail(t.db, mail('deleted-42@deleted.invalid'), 1_800_000_000);
      await enqueueEmail(t.db, mail('x@Mail.INVALID'), 1_800_000_000);
      expect((await t.db.selectFrom('outbox_emails').select('to_address').execute()).map((r) => r.to_address)).toEqual(['ana@example.test']);
    });
  });
}

