/**
 * What every page loads: the floating button, the keyboard shortcut and "Ask about this" next
 * to a selection. The panel itself (Markdown, stream client, focus trap) is `import()`ed when the
 * chat first opens (or when the pointer reaches the button, to be ready by the click).
 */
import React, {Suspense, lazy, useCallback, useEffect, useMemo, useRef, useState, type ReactNode} from 'react';
import {translate} from '@docusaurus/Translate';
import {useBookragConfig} from '../../client/config';
import {describeShortcut, isApple, matchesShortcut, parseShortcut} from '../../client/shortcut';
import './launcher.css';

const loadPanel = () => import('./Panel');
const Panel = lazy(loadPanel);

const OPEN_KEY = 'bookrag:open';

interface SelectionOffer {
  text: string;
  top: number;
  left: number;
}

/** The selected text and where to offer "Ask about this", if the selection is in the book. */
function offerFor(selector: string): SelectionOffer | null {
  const selection = window.getSelection();
  if (!selection || selection.isCollapsed || selection.rangeCount === 0) return null;
  const text = selection.toString().trim();
  if (text.length < 2) return null;
  const elementOf = (node: Node | null) => (node instanceof Element ? node : node?.parentElement ?? null);
  const range = selection.getRangeAt(0);
  // The selection starts in the book (a triple click on a page's last paragraph may end just
  // outside it), and no part of it is in the chat.
  if (!elementOf(range.startContainer)?.closest(selector)) return null;
  if ([range.startContainer, range.endContainer].some((node) => elementOf(node)?.closest('.bookrag-panel'))) return null;
  const rects = range.getClientRects();
  const last = rects[rects.length - 1];
  if (!last) return null;
  const left = Math.min(last.right + window.scrollX, window.scrollX + document.documentElement.clientWidth - 150);
  return {text, top: last.bottom + window.scrollY + 8, left: Math.max(window.scrollX + 8, left - 60)};
}

function ChatIcon(): ReactNode {
  return (
    <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z" />
    </svg>
  );
}

export default function Launcher(): ReactNode {
  const config = useBookragConfig();
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const [selection, setSelection] = useState<string | null>(null);
  const [draft, setDraft] = useState('');
  const [offer, setOffer] = useState<SelectionOffer | null>(null);
  const pointerDown = useRef(false);
  const buttonRef = useRef<HTMLButtonElement>(null);

  const label = config.strings.openButton ?? translate({id: 'bookrag.openButton', message: 'Ask the book', description: 'The floating button that opens the chat'});
  const askLabel = config.strings.askSelection ?? translate({id: 'bookrag.askSelection', message: 'Ask about this', description: 'Button next to selected page text'});

  // Known only in the browser: the server-rendered page and its hydration both go without it.
  const [apple, setApple] = useState<boolean | null>(null);
  useEffect(() => setApple(isApple(navigator.platform || navigator.userAgent)), []);
  const shortcut = useMemo(() => {
    if (!config.shortcut || apple === null) return null;
    const parsed = parseShortcut(config.shortcut, apple);
    return {parsed, text: describeShortcut(parsed, apple)};
  }, [config.shortcut, apple]);

  const show = useCallback((withSelection?: string) => {
    if (withSelection) setSelection(withSelection);
    setLoaded(true);
    setOpen(true);
    setOffer(null);
  }, []);

  const close = useCallback(() => setOpen(false), []);

  // Focus goes back to the button when the chat closes (once the button is shown again).
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && !open) buttonRef.current?.focus({preventScroll: true});
    wasOpen.current = open;
  }, [open]);

  // A reload reopens a chat that was open.
  useEffect(() => {
    try {
      if (window.sessionStorage.getItem(OPEN_KEY) === '1') show();
    } catch {
      // storage forbidden
    }
  }, [show]);

  useEffect(() => {
    try {
      window.sessionStorage.setItem(OPEN_KEY, open ? '1' : '0');
    } catch {
      // storage forbidden
    }
  }, [open]);

  useEffect(() => {
    if (!shortcut) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (!matchesShortcut(event, shortcut.parsed)) return;
      event.preventDefault();
      if (open) {
        close();
        return;
      }
      const selected = config.selectToAsk ? offerFor(config.selectionSelector) : null;
      show(selected?.text);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [shortcut, open, show, close, config.selectToAsk, config.selectionSelector]);

  useEffect(() => {
    if (!config.selectToAsk) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const update = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (!pointerDown.current) setOffer(offerFor(config.selectionSelector));
      }, 120);
    };
    const down = (event: PointerEvent) => {
      if ((event.target as Element | null)?.closest?.('.bookrag-ask-selection')) return;
      pointerDown.current = true;
    };
    const up = () => {
      pointerDown.current = false;
      update();
    };
    document.addEventListener('selectionchange', update);
    document.addEventListener('pointerdown', down);
    document.addEventListener('pointerup', up);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('selectionchange', update);
      document.removeEventListener('pointerdown', down);
      document.removeEventListener('pointerup', up);
    };
  }, [config.selectToAsk, config.selectionSelector]);

  const title = shortcut ? `${label} (${shortcut.text})` : label;
  return (
    <>
      {offer && (
        <button
          type="button"
          className="bookrag-ask-selection"
          data-testid="bookrag-ask-selection"
          style={{top: offer.top, left: offer.left}}
          onPointerDown={(event) => event.preventDefault()}
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => show(offer.text)}>
          <ChatIcon />
          <span>{askLabel}</span>
        </button>
      )}
      <button
        ref={buttonRef}
        type="button"
        className={`bookrag-launcher bookrag-launcher--${config.position}${open ? ' bookrag-launcher--hidden' : ''}`}
        data-testid="bookrag-open"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-keyshortcuts={shortcut && config.shortcut ? config.shortcut.replace(/mod/i, shortcut.parsed.meta ? 'Meta' : 'Control') : undefined}
        title={title}
        onPointerEnter={() => void loadPanel()}
        onFocus={() => void loadPanel()}
        onClick={() => (open ? close() : show())}>
        <ChatIcon />
        <span className="bookrag-launcher__label">{label}</span>
      </button>
      {loaded && (
        <Suspense fallback={null}>
          <Panel
            open={open}
            onClose={close}
            selection={selection}
            onSelectionChange={setSelection}
            draft={draft}
            onDraftChange={setDraft}
            shortcutText={shortcut?.text}
          />
        </Suspense>
      )}
    </>
  );
}
