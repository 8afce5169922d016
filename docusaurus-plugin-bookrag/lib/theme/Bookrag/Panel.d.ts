/**
 * The chat panel (loaded on first open): a dialog with the conversation, the question box and
 * the selection being asked about. Focus stays inside while it is open (focus-trap), Esc
 * closes it, and the conversation is a polite live region, so screen readers read the answer
 * as it streams in.
 */
import { type ReactNode } from 'react';
import './panel.css';
export interface PanelProps {
    open: boolean;
    onClose: () => void;
    selection: string | null;
    onSelectionChange: (selection: string | null) => void;
    draft: string;
    onDraftChange: (draft: string) => void;
    shortcutText?: string;
}
export default function Panel({ open, onClose, selection, onSelectionChange, draft, onDraftChange, shortcutText }: PanelProps): ReactNode;
