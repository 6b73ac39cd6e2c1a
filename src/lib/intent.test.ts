import { describe, expect, it } from 'vitest';
import { intentOf, paidOrderOf, parseIntent, withIntent, withoutReturnParams, withParam } from './intent';

describe('intents in return paths', () => {
  it('reads the two actions and nothing else', () => {
    expect(parseIntent('unlock:EPI-abc_1')).toEqual({ kind: 'unlock', e4pid: 'EPI-abc_1' });
    expect(parseIntent('favorite:SER-x1')).toEqual({ kind: 'favorite', e4pid: 'SER-x1' });
    for (const bad of ['', 'unlock', 'unlock:', 'unlock:SER-x', 'favorite:EPI-x', 'buy:EPI-x', 'unlock:EPI-a b', 'unlock:EPI-<x>', `unlock:EPI-${'a'.repeat(65)}`, ':EPI-x']) {
      expect(parseIntent(bad), bad).toBeNull();
    }
  });

  it('adds, replaces and removes the intent, keeping the query and the fragment', () => {
    expect(withIntent('/comics/a/?page=2#languages', { kind: 'unlock', e4pid: 'EPI-1' })).toBe('/comics/a/?page=2&intent=unlock%3AEPI-1#languages');
    expect(withIntent('/comics/a/?intent=unlock%3AEPI-1', { kind: 'unlock', e4pid: 'EPI-2' })).toBe('/comics/a/?intent=unlock%3AEPI-2');
    expect(intentOf('/comics/a/?page=2&intent=favorite%3ASER-9#x')).toEqual({ kind: 'favorite', e4pid: 'SER-9' });
    expect(withoutReturnParams('/comics/a/?intent=unlock%3AEPI-1&paid=ORD-1&order=asc#c')).toBe('/comics/a/?order=asc#c');
  });

  it('never turns a path into one off the site', () => {
    for (const path of ['//evil.example/', '/%2e%2e//evil.example', '/\\evil.example', 'https://evil.example/?intent=unlock:EPI-1', 'javascript:alert(1)']) {
      expect(withParam(path, 'paid', 'ORD-1'), path).toBe(path);
      expect(intentOf(path), path).toBeNull();
    }
  });

  it('reads a well-formed order id only', () => {
    expect(paidOrderOf(new URLSearchParams('paid=ORD-abc_1'))).toBe('ORD-abc_1');
    for (const bad of ['', 'a b', '<x>', 'a'.repeat(65)]) expect(paidOrderOf(new URLSearchParams({ paid: bad })), bad).toBeNull();
  });
});
