/**
 * Staff capabilities and the one check every staff route makes (issue 27, docs/staff.md). An
 * account holds any of the capabilities below (table user_capabilities, granted with
 * `npm run user -- grant-role`); holding none makes it a reader.
 */
import { json, textResponse } from './http';
import { redirectTo } from '~/lib/redirect';
import { confirmPasswordPath, loginPath } from '~/lib/paths';
import type { AuditActor } from './audit';

export const CAPABILITIES = ['content', 'pricing', 'support', 'money', 'moderation', 'admin'] as const;
export type Capability = (typeof CAPABILITIES)[number];

export function isCapability(value: unknown): value is Capability {
  return typeof value === 'string' && (CAPABILITIES as readonly string[]).includes(value);
}

/**
 * Capabilities that move money or change who may do what: their routes want the password typed
 * within the last RECENT_SIGN_IN seconds (a session left open on a shared desk is not enough).
 */
const WANT_RECENT_SIGN_IN: ReadonlySet<Capability> = new Set(['money', 'admin']);
export const RECENT_SIGN_IN = 15 * 60;

/** What a staff route needs of Astro's context. */
export interface StaffContext {
  locals: App.Locals;
  url: URL;
  request: Request;
  clientAddress: string;
}

export type StaffCheck =
  | { ok: true; user: NonNullable<App.Locals['user']>; actor: AuditActor & { userId: number } }
  | { ok: false; response: Response };

/**
 * The server-side check of a staff route, before it reads or writes anything. Signed out: a
 * page goes to the login page (coming back here), a call answers 401. Signed in without the
 * capability: 403, in the site's language. Money and admin routes whose session began more than
 * 15 minutes ago: the password page, coming back here (a call: 401). `answer` is the route's kind: `json` answers in the
 * spec's `{success: false, data}` shape; `next` is where the login page returns (this page, unless
 * a form posted here from another). On success, the audit actor for the route's records
 * (who, with which capability, from which address and browser).
 */
export function requireCapability(ctx: StaffContext, capability: Capability, answer: 'page' | 'json', next = ctx.url.pathname + ctx.url.search): StaffCheck {
  const { locals, request } = ctx;
  const user = locals.user;
  if (!user) {
    if (answer === 'page') return { ok: false, response: redirectTo(loginPath(next)) };
    return { ok: false, response: json({ success: false, data: locals.t('staff.error.signIn') }, { status: 401, cache: 'no-store' }) };
  }
  if (!user.capabilities.includes(capability)) {
    const text = locals.t('staff.error.forbidden');
    return { ok: false, response: answer === 'json' ? json({ success: false, data: text }, { status: 403, cache: 'no-store' }) : textResponse(403, text) };
  }
  if (WANT_RECENT_SIGN_IN.has(capability) && locals.now - user.signedInAt > RECENT_SIGN_IN) {
    // A page asks for the password and comes back; a form's post is not replayed (its page is
    // shown again, fresh). A call says why, for its caller to send the person to that page.
    if (answer === 'page') return { ok: false, response: redirectTo(confirmPasswordPath(next)) };
    return { ok: false, response: json({ success: false, data: locals.t('staff.error.confirm') }, { status: 401, cache: 'no-store' }) };
  }
  return {
    ok: true,
    user,
    actor: { userId: user.id, capability, ip: address(ctx), userAgent: request.headers.get('user-agent')?.slice(0, 512) ?? null },
  };
}

/**
 * The check of a page readable with any of several capabilities (the support desk: `support`
 * reads, and a `money` member reads what they act on): the first one the account holds is the
 * one checked (re-authentication included), so a member holding `support` reads without being
 * asked for their password again. Signed out, or holding none: as requireCapability with the first.
 */
export function requireAnyCapability(ctx: StaffContext, capabilities: readonly [Capability, ...Capability[]], answer: 'page' | 'json', next?: string): StaffCheck {
  const held = capabilities.find((c) => ctx.locals.user?.capabilities.includes(c)) ?? capabilities[0];
  return requireCapability(ctx, held, answer, next);
}

/** The socket's address (scripts/serve.mjs keeps only the trusted proxy's hop). */
function address(ctx: StaffContext): string | null {
  try {
    return ctx.clientAddress || null;
  } catch {
    return null;
  }
}
