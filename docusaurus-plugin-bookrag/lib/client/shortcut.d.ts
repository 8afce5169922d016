/** Keyboard shortcuts written as `mod+/`, `ctrl+shift+k`...: parsed once, matched per key event. */
export interface Shortcut {
    key: string;
    ctrl: boolean;
    meta: boolean;
    alt: boolean;
    shift: boolean;
}
/** Whether this browser runs on an Apple platform, where `mod` means Cmd. */
export declare function isApple(platform: string): boolean;
/** Parse `mod+shift+k`; `mod` is Cmd on Apple platforms and Ctrl elsewhere. */
export declare function parseShortcut(text: string, apple: boolean): Shortcut;
interface KeyLike {
    key: string;
    code?: string;
    ctrlKey: boolean;
    metaKey: boolean;
    altKey: boolean;
    shiftKey: boolean;
}
/** Whether a key event is the shortcut (exact modifiers; Shift may change the printed key). */
export declare function matchesShortcut(event: KeyLike, shortcut: Shortcut): boolean;
/** How to show the shortcut to a reader: `Ctrl+/`, `⌘/`. */
export declare function describeShortcut(shortcut: Shortcut, apple: boolean): string;
export {};
