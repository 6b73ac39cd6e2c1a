/**
 * Login prompts say what logging in is for where they are shown (issue 24: signed out, the
 * series page's subscribe button answered "Log in to unlock chapters."). Every message that asks
 * the reader to log in is a prompt of its own ("Log in to …" / "Entre para …") naming a purpose,
 * in both languages; the other mentions of logging in are reviewed below. Which route answers
 * with which prompt is checked over HTTP (tests/integration/login-prompts.test.ts).
 */
import { describe, expect, it } from 'vitest';
import en from './en.json';
import pt from './pt-BR.json';

const EN = en as Record<string, string>;
const PT = pt as Record<string, string>;

/** Mentions of logging in that are not prompts: the log-in page and links to it, with why. */
const NOT_PROMPTS: Record<string, string> = {
  'header.login': 'the header\'s link to the log-in page',
  'auth.login.title': 'the log-in page\'s title',
  'auth.login.submit': 'the log-in form\'s button',
  'auth.signup.loginLink': 'the sign-up page\'s link to the log-in page',
  'auth.login.intro': 'the log-in page itself, saying what an account is for',
  'auth.signup.taken': 'a sign-up refusal pointing to the log-in page',
  'comments.login': 'the comments page\'s link to the log-in page, after the prompt comments.closed.login',
  'auth.forgot.back': 'the forgotten-password page\'s link back to the log-in page',
  'auth.emailConfirm.done': 'a confirmation saying which address logs in from now on',
  'mail.emailNotice.notYou': 'an email telling the old address what to do if the change was not theirs',
};
/** Purposes that say nothing of the context. */
const GENERIC = /^(continue|proceed|go on|do (this|that)|use (this|the site)|continuar|prosseguir|seguir|fazer isso)\b/i;

const asksToLogIn = (key: string) => /\blog ?in\b|\bsign in\b/i.test(EN[key]!) || /^entre\b|\bentrar\b(?! no chat)|\bentre\.$/i.test(PT[key]!);
const purpose = (text: string, lead: RegExp) => lead.exec(text)?.[1] ?? null;

describe('login prompts', () => {
  const keys = Object.keys(EN).filter(asksToLogIn);

  it('every message asking to log in is a prompt naming its purpose, in both languages', () => {
    const wrong: string[] = [];
    for (const key of keys) {
      if (key in NOT_PROMPTS) continue;
      const enPurpose = purpose(EN[key]!, /^Log in to (.+?)\.?$/);
      const ptPurpose = purpose(PT[key]!, /^Entre para (.+?)\.?$/);
      if (!enPurpose || GENERIC.test(enPurpose)) wrong.push(`en ${key}: "${EN[key]}" does not say what logging in is for`);
      if (!ptPurpose || GENERIC.test(ptPurpose)) wrong.push(`pt-BR ${key}: "${PT[key]}" does not say what logging in is for`);
    }
    expect(wrong).toEqual([]);
    // The prompts the issue is about exist, and say what they are for.
    expect(EN['subscribe.error.loginSeries']).toBe('Log in to add this series to your subscription.');
    expect(PT['subscribe.error.loginSeries']).toBe('Entre para adicionar esta série à sua assinatura.');
  });

  it('the reviewed mentions exist and still mention logging in', () => {
    for (const key of Object.keys(NOT_PROMPTS)) expect(asksToLogIn(key), key).toBe(true);
  });

  it('the check refuses a prompt that names no purpose', () => {
    for (const generic of ['continue', 'continuar']) expect(GENERIC.test(generic)).toBe(true);
    expect(purpose('Log in to continue.', /^Log in to (.+?)\.?$/)).toBe('continue');
    expect(purpose('Log in', /^Log in to (.+?)\.?$/)).toBeNull();
  });
});
