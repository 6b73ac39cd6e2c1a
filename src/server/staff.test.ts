import { describe, expect, it } from 'vitest';
import { createT } from '~/lib/i18n';
import { isCapability, RECENT_SIGN_IN, requireCapability, type StaffContext } from './staff';

const NOW = 1_800_000_000;

function ctx(user: { capabilities: string[]; signedInAt?: number } | null, headers: Record<string, string> = {}): StaffContext {
  const url = new URL('http://localhost/studio/x/?a=1');
  return {
    locals: { t: createT('pt-BR'), now: NOW, user: user && { id: 7, email: 'a@b.c', displayName: 'A', isStaff: user.capabilities.length > 0, keys: 0, freeKeys: 0, signedInAt: NOW - 60, ...user } } as unknown as App.Locals,
    url,
    request: new Request(url, { headers }),
    get clientAddress(): string {
      throw new Error('no socket');
    },
  };
}

describe('requireCapability (the one staff check)', () => {
  it('sends a signed-out page to the login page and back, and answers a signed-out call 401', async () => {
    const page = requireCapability(ctx(null), 'content', 'page');
    expect(page.ok).toBe(false);
    if (!page.ok) {
      expect(page.response.status).toBe(303);
      expect(page.response.headers.get('location')).toBe('/auth/login/?next=%2Fstudio%2Fx%2F%3Fa%3D1');
    }
    const call = requireCapability(ctx(null), 'content', 'json');
    expect(call.ok).toBe(false);
    if (!call.ok) {
      expect(call.response.status).toBe(401);
      expect(await call.response.json()).toEqual({ success: false, data: createT('pt-BR')('staff.error.signIn') });
    }
  });

  it('answers 403 in the site language to a reader and to staff without the capability', async () => {
    for (const capabilities of [[], ['pricing', 'support']]) {
      for (const answer of ['page', 'json'] as const) {
        const check = requireCapability(ctx({ capabilities }), 'content', answer);
        expect(check.ok).toBe(false);
        if (!check.ok) {
          expect(check.response.status).toBe(403);
          expect(await check.response.text()).toContain(createT('pt-BR')('staff.error.forbidden'));
        }
      }
    }
  });

  it('lets staff with the capability through, with the audit actor (no address when the socket has none)', () => {
    const check = requireCapability(ctx({ capabilities: ['content'] }, { 'user-agent': 'UA/1' }), 'content', 'page');
    expect(check.ok && check.actor).toEqual({ userId: 7, capability: 'content', ip: null, userAgent: 'UA/1' });
  });

  it('asks money and admin staff who signed in over 15 minutes ago for their password, coming back; other capabilities never', async () => {
    for (const capability of ['money', 'admin'] as const) {
      const fresh = requireCapability(ctx({ capabilities: [capability], signedInAt: NOW - RECENT_SIGN_IN }), capability, 'page');
      expect(fresh.ok).toBe(true);
      const page = requireCapability(ctx({ capabilities: [capability], signedInAt: NOW - RECENT_SIGN_IN - 1 }), capability, 'page');
      expect(!page.ok && [page.response.status, page.response.headers.get('location')]).toEqual([303, '/auth/confirm/?next=%2Fstudio%2Fx%2F%3Fa%3D1']);
      const call = requireCapability(ctx({ capabilities: [capability], signedInAt: NOW - 3600 }), capability, 'json');
      expect(call.ok).toBe(false);
      if (!call.ok) {
        expect(call.response.status).toBe(401);
        expect(await call.response.json()).toEqual({ success: false, data: createT('pt-BR')('staff.error.confirm') });
      }
    }
    for (const capability of ['content', 'pricing', 'support', 'moderation'] as const) {
      expect(requireCapability(ctx({ capabilities: [capability], signedInAt: NOW - 86_400 }), capability, 'page').ok).toBe(true);
    }
    // Holding admin does not make a content page ask.
    expect(requireCapability(ctx({ capabilities: ['admin', 'content'], signedInAt: NOW - 86_400 }), 'content', 'page').ok).toBe(true);
  });

  it('knows the six capabilities and nothing else', () => {
    for (const c of ['content', 'pricing', 'support', 'money', 'moderation', 'admin']) expect(isCapability(c)).toBe(true);
    for (const c of ['owner', 'Content', '', null, 1]) expect(isCapability(c)).toBe(false);
  });
});
