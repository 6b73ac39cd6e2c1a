import { describe, expect, it } from 'vitest';
import { logoutPromptHtml } from './logout-prompt';

const texts = { title: 'Log out', question: 'Sure <b>?</b>', confirm: 'Confirm', cancel: 'Cancel' };

describe('logout prompt', () => {
  it('is a form that POSTs to /auth/logout/ with Confirm and Cancel, escaped', () => {
    const html = logoutPromptHtml(texts, false);
    expect(html).toContain('method="post" action="/auth/logout/"');
    expect(html).toContain('formmethod="dialog"');
    expect(html).toContain('Sure &lt;b&gt;?&lt;/b&gt;');
  });
  it('cancels with a link home on the full page', () => {
    expect(logoutPromptHtml(texts, true)).toContain('<a class="btn" href="/">Cancel</a>');
  });
});
