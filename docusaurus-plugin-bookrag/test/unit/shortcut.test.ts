import {describe, expect, it} from 'vitest';
import {describeShortcut, matchesShortcut, parseShortcut} from '../../src/client/shortcut';

const key = (init: Partial<{key: string; code: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean}>) => ({
  key: '', code: '', ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...init,
});

describe('shortcuts', () => {
  it('mod is Ctrl elsewhere and Cmd on Apple platforms', () => {
    expect(parseShortcut('mod+/', false)).toMatchObject({key: '/', ctrl: true, meta: false});
    expect(parseShortcut('mod+/', true)).toMatchObject({key: '/', ctrl: false, meta: true});
  });
  it('the default does not answer the search box shortcut (Ctrl/Cmd+K)', () => {
    const shortcut = parseShortcut('mod+/', false);
    expect(matchesShortcut(key({key: 'k', code: 'KeyK', ctrlKey: true}), shortcut)).toBe(false);
    expect(matchesShortcut(key({key: '/', code: 'Slash', ctrlKey: true}), shortcut)).toBe(true);
    expect(matchesShortcut(key({key: '/', code: 'Slash'}), shortcut)).toBe(false);
  });
  it('matches by physical key when Shift changes the printed one', () => {
    const shortcut = parseShortcut('ctrl+shift+k', false);
    expect(matchesShortcut(key({key: 'K', code: 'KeyK', ctrlKey: true, shiftKey: true}), shortcut)).toBe(true);
    expect(matchesShortcut(key({key: 'K', code: 'KeyK', ctrlKey: true, shiftKey: true, altKey: true}), shortcut)).toBe(false);
  });
  it('is shown the platform way', () => {
    expect(describeShortcut(parseShortcut('mod+/', false), false)).toBe('Ctrl+/');
    expect(describeShortcut(parseShortcut('mod+shift+k', true), true)).toBe('⇧⌘K');
  });
});
