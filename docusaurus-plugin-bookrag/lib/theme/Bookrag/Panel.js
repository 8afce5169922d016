import { jsx as _jsx, jsxs as _jsxs, Fragment as _Fragment } from "react/jsx-runtime";
/**
 * The chat panel (loaded on first open): a dialog with the conversation, the question box and
 * the selection being asked about. Focus stays inside while it is open (focus-trap), Esc
 * closes it, and the conversation is a polite live region, so screen readers read the answer
 * as it streams in.
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { createFocusTrap } from 'focus-trap';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import docFiles from '@generated/docusaurus-plugin-bookrag/default/doc-files.json';
import { useBookragConfig, format } from '../../client/config';
import { pageTitle } from '../../client/page';
import { getStore } from '../../client/store';
import { normalizeBaseUrl, originOf } from '../../client/urls';
import Answer from './Answer';
import { useStrings } from './strings';
import './panel.css';
function safeLocalStorage() {
    try {
        return window.localStorage;
    }
    catch {
        return null;
    }
}
const PHONE = '(max-width: 600px)';
/** A clock that ticks each second while something counts down. */
function useNow(active) {
    const [now, setNow] = useState(() => Date.now());
    useEffect(() => {
        if (!active)
            return undefined;
        const timer = setInterval(() => setNow(Date.now()), 1000);
        return () => clearInterval(timer);
    }, [active]);
    return now;
}
export default function Panel({ open, onClose, selection, onSelectionChange, draft, onDraftChange, shortcutText }) {
    const config = useBookragConfig();
    const strings = useStrings();
    const { siteConfig } = useDocusaurusContext();
    const store = useMemo(() => getStore({
        apiUrl: config.apiUrl,
        filters: config.filters,
        bookId: config.bookId,
        storage: safeLocalStorage(),
        schedule: (flush) => window.requestAnimationFrame(flush),
    }), [config.apiUrl, config.filters, config.bookId]);
    const state = useSyncExternalStore(store.subscribe, store.getState, store.getState);
    const [composerError, setComposerError] = useState(null);
    const dialogRef = useRef(null);
    const inputRef = useRef(null);
    const logRef = useRef(null);
    const stickToBottom = useRef(true);
    const titleId = useId();
    const site = useMemo(() => ({
        baseUrl: normalizeBaseUrl(siteConfig.baseUrl),
        origins: [originOf(siteConfig.url), window.location.origin].filter((o) => Boolean(o)),
        docFiles: docFiles,
    }), [siteConfig.baseUrl, siteConfig.url]);
    const counting = state.messages.some((m) => m.role === 'assistant' && m.error?.retryAt && m.error.retryAt > Date.now());
    const now = useNow(open && counting);
    // Keep focus inside the dialog while it is open; give it back when it closes.
    useEffect(() => {
        if (!open || !dialogRef.current)
            return undefined;
        let trap = createFocusTrap(dialogRef.current, {
            initialFocus: () => inputRef.current ?? dialogRef.current,
            fallbackFocus: () => dialogRef.current,
            escapeDeactivates: false,
            allowOutsideClick: true,
            returnFocusOnDeactivate: false,
        });
        try {
            trap.activate();
        }
        catch {
            trap = null;
        }
        return () => {
            trap?.deactivate();
        };
    }, [open]);
    useEffect(() => {
        if (!open)
            return undefined;
        const onKey = (event) => {
            if (event.key === 'Escape' && !event.defaultPrevented) {
                event.preventDefault();
                onClose();
            }
        };
        document.addEventListener('keydown', onKey);
        return () => document.removeEventListener('keydown', onKey);
    }, [open, onClose]);
    // A selection attached while the panel was open: focus the question box.
    useEffect(() => {
        if (open && selection)
            inputRef.current?.focus();
    }, [open, selection]);
    // Follow the streaming answer unless the reader scrolled up to read.
    useEffect(() => {
        const log = logRef.current;
        if (log && stickToBottom.current)
            log.scrollTop = log.scrollHeight;
    }, [state.messages, open]);
    const onScroll = () => {
        const log = logRef.current;
        if (log)
            stickToBottom.current = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    };
    const onNavigate = useCallback(() => {
        if (window.matchMedia(PHONE).matches)
            onClose();
    }, [onClose]);
    const tooLong = draft.trim().length - config.maxQuestionLength;
    const ask = (text) => {
        const question = text.trim() || (selection ? strings.defaultSelectionQuestion : '');
        if (!question || state.busy)
            return;
        if (question.length > config.maxQuestionLength) {
            setComposerError(format(strings.errorTooLong, { detail: `${question.length} / ${config.maxQuestionLength}` }));
            return;
        }
        setComposerError(null);
        stickToBottom.current = true;
        store.ask(question, selection ?? undefined, pageTitle(document));
        onDraftChange('');
        onSelectionChange(null);
    };
    if (!open)
        return null;
    const empty = state.messages.length === 0;
    return (_jsxs("div", { ref: dialogRef, className: `bookrag-panel bookrag-panel--${config.position}`, role: "dialog", "aria-modal": "true", "aria-labelledby": titleId, "data-testid": "bookrag-panel", children: [_jsxs("header", { className: "bookrag-panel__header", children: [_jsx("h2", { id: titleId, className: "bookrag-panel__title", children: strings.title }), _jsx("button", { type: "button", className: "bookrag-button bookrag-button--ghost", onClick: () => store.newChat(), "data-testid": "bookrag-new-chat", disabled: empty, children: strings.newChat }), _jsx("button", { type: "button", className: "bookrag-icon-button", onClick: onClose, "aria-label": strings.close, title: strings.close, "data-testid": "bookrag-close", children: _jsx("svg", { "aria-hidden": "true", width: "18", height: "18", viewBox: "0 0 24 24", fill: "none", stroke: "currentColor", strokeWidth: "2", children: _jsx("path", { d: "M18 6 6 18M6 6l12 12" }) }) })] }), _jsxs("div", { ref: logRef, className: "bookrag-panel__log", role: "log", "aria-live": "polite", "aria-relevant": "additions text", onScroll: onScroll, children: [empty && (_jsxs("div", { className: "bookrag-welcome", children: [_jsx("p", { children: strings.greeting }), config.suggestedQuestions.length > 0 && (_jsxs(_Fragment, { children: [_jsx("p", { className: "bookrag-welcome__heading", children: strings.suggestedHeading }), _jsx("ul", { className: "bookrag-suggestions", children: config.suggestedQuestions.map((question) => (_jsx("li", { children: _jsx("button", { type: "button", className: "bookrag-suggestion", "data-testid": "bookrag-suggestion", onClick: () => ask(question), children: question }) }, question))) })] }))] })), state.messages.map((message) => message.role === 'user' ? (_jsxs("div", { className: "bookrag-question", "data-testid": "bookrag-question", children: [_jsxs("span", { className: "bookrag-visually-hidden", children: [strings.you, ": "] }), message.selection && (_jsx("blockquote", { className: "bookrag-quote", "data-testid": "bookrag-quote", children: message.selection })), _jsx("p", { children: message.text })] }, message.id)) : (_jsx(Answer, { message: message, strings: strings, site: site, onNavigate: onNavigate, onRetry: () => store.retry(message.id), onRate: (score) => void store.rate(message.id, score), now: now }, message.id)))] }), _jsxs("form", { className: "bookrag-panel__composer", onSubmit: (event) => {
                    event.preventDefault();
                    ask(draft);
                }, children: [selection && (_jsxs("div", { className: "bookrag-attached", children: [_jsx("span", { className: "bookrag-attached__label", children: strings.selectionLabel }), _jsx("blockquote", { className: "bookrag-quote bookrag-quote--attached", "data-testid": "bookrag-selection", children: selection }), _jsx("button", { type: "button", className: "bookrag-icon-button", "aria-label": strings.removeSelection, title: strings.removeSelection, onClick: () => onSelectionChange(null), children: _jsx("svg", { "aria-hidden": "true", width: "14", height: "14", viewBox: "0 0 24 24", fill: "none", stroke: "currentColor", strokeWidth: "2", children: _jsx("path", { d: "M18 6 6 18M6 6l12 12" }) }) })] })), (composerError || tooLong > 0) && (_jsx("p", { className: "bookrag-error bookrag-error--too_long", "data-testid": "bookrag-error", "data-kind": "too_long", role: "alert", children: composerError ?? format(strings.charactersLeft, { count: tooLong }) })), _jsxs("div", { className: "bookrag-composer__row", children: [_jsx("label", { className: "bookrag-visually-hidden", htmlFor: `${titleId}-input`, children: strings.inputLabel }), _jsx("textarea", { id: `${titleId}-input`, ref: inputRef, className: "bookrag-input", "data-testid": "bookrag-input", rows: 2, value: draft, placeholder: selection ? strings.placeholderSelection : strings.placeholder, onChange: (event) => {
                                    onDraftChange(event.target.value);
                                    if (composerError)
                                        setComposerError(null);
                                }, onKeyDown: (event) => {
                                    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
                                        event.preventDefault();
                                        ask(draft);
                                    }
                                } }), state.busy ? (_jsx("button", { type: "button", className: "bookrag-button bookrag-button--stop", onClick: () => store.stop(), "data-testid": "bookrag-stop", children: strings.stop })) : (_jsx("button", { type: "submit", className: "bookrag-button bookrag-button--send", "data-testid": "bookrag-send", disabled: !draft.trim() && !selection, children: strings.send }))] }), _jsxs("p", { className: "bookrag-hint", children: [strings.hint, shortcutText ? ` (${shortcutText})` : ''] })] })] }));
}
