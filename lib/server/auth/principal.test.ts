import { describe, expect, it } from 'vitest';
import { actorName, isAdminToken, mayAct } from './principal';

describe('principals', () => {
  it('matches the admin token exactly, and never when none is configured', () => {
    expect(isAdminToken('a'.repeat(30), 'a'.repeat(30))).toBe(true);
    expect(isAdminToken('a'.repeat(29), 'a'.repeat(30))).toBe(false);
    expect(isAdminToken('', undefined)).toBe(false);
    expect(isAdminToken('anything', undefined)).toBe(false);
  });

  it('lets the token, maintainers and admins act; readers and authors not', () => {
    const u = (role: 'reader' | 'author' | 'maintainer' | 'admin') => ({ kind: 'user' as const, user: { id: '1', githubLogin: 'x', role } });
    expect([mayAct(null), mayAct({ kind: 'admin-token' }), mayAct(u('reader')), mayAct(u('author')), mayAct(u('maintainer')), mayAct(u('admin'))]).toEqual([false, true, false, false, true, true]);
    expect(actorName({ kind: 'admin-token' })).toBe('~admin');
  });
});
