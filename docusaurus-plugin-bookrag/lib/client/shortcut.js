/** Keyboard shortcuts written as `mod+/`, `ctrl+shift+k`...: parsed once, matched per key event. */
/** Whether this browser runs on an Apple platform, where `mod` means Cmd. */
export function isApple(platform) {
    return /mac|iphone|ipad|ipod/i.test(platform);
}
/** Parse `mod+shift+k`; `mod` is Cmd on Apple platforms and Ctrl elsewhere. */
export function parseShortcut(text, apple) {
    const parts = text.toLowerCase().split('+');
    const key = parts.pop() ?? '';
    const shortcut = { key, ctrl: false, meta: false, alt: false, shift: false };
    for (const part of parts) {
        if (part === 'mod')
            shortcut[apple ? 'meta' : 'ctrl'] = true;
        else if (part === 'ctrl' || part === 'control')
            shortcut.ctrl = true;
        else if (part === 'meta' || part === 'cmd')
            shortcut.meta = true;
        else if (part === 'alt' || part === 'option')
            shortcut.alt = true;
        else if (part === 'shift')
            shortcut.shift = true;
    }
    return shortcut;
}
/** `Digit1` → `1`, `KeyK` → `k`, `Slash` → `/`: the key regardless of Shift or layout. */
function keyOfCode(code) {
    if (!code)
        return null;
    if (/^Key[A-Z]$/.test(code))
        return code.slice(3).toLowerCase();
    if (/^Digit[0-9]$/.test(code))
        return code.slice(5);
    const named = { Slash: '/', Period: '.', Comma: ',', Semicolon: ';', Quote: "'", Backquote: '`' };
    return named[code] ?? null;
}
/** Whether a key event is the shortcut (exact modifiers; Shift may change the printed key). */
export function matchesShortcut(event, shortcut) {
    if (event.ctrlKey !== shortcut.ctrl || event.metaKey !== shortcut.meta)
        return false;
    if (event.altKey !== shortcut.alt || event.shiftKey !== shortcut.shift)
        return false;
    return event.key.toLowerCase() === shortcut.key || keyOfCode(event.code) === shortcut.key;
}
/** How to show the shortcut to a reader: `Ctrl+/`, `⌘/`. */
export function describeShortcut(shortcut, apple) {
    const names = [];
    if (shortcut.ctrl)
        names.push(apple ? '⌃' : 'Ctrl');
    if (shortcut.alt)
        names.push(apple ? '⌥' : 'Alt');
    if (shortcut.shift)
        names.push(apple ? '⇧' : 'Shift');
    if (shortcut.meta)
        names.push(apple ? '⌘' : 'Meta');
    const key = shortcut.key.length === 1 ? shortcut.key.toUpperCase() : shortcut.key;
    return apple ? names.join('') + key : [...names, key].join('+');
}
