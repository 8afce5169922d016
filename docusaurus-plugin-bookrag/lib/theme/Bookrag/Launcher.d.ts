/**
 * What every page loads: the floating button, the keyboard shortcut and "Ask about this" next
 * to a selection. The panel itself (Markdown, stream client, focus trap) is `import()`ed when the
 * chat first opens (or when the pointer reaches the button, to be ready by the click).
 */
import { type ReactNode } from 'react';
import './launcher.css';
export default function Launcher(): ReactNode;
