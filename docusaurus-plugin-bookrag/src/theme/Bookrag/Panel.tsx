/**
 * The chat panel (loaded on first open): a dialog with the conversation, the question box and
 * the selection being asked about. Focus stays inside while it is open (focus-trap), Esc
 * closes it, and the conversation is a polite live region, so screen readers read the answer
 * as it streams in.
 */
import React, {useCallback, useEffect, useId, useMemo, useRef, useState, useSyncExternalStore, type ReactNode} from 'react';
import {createFocusTrap, type FocusTrap} from 'focus-trap';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import docFiles from '@generated/docusaurus-plugin-bookrag/default/doc-files.json';
import {useBookragConfig, format} from '../../client/config';
import {pageTitle} from '../../client/page';
import {getStore} from '../../client/store';
import {normalizeBaseUrl, originOf, type SiteContext} from '../../client/urls';
import Answer from './Answer';
import {useStrings} from './strings';
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

function safeLocalStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

const PHONE = '(max-width: 600px)';

/** A clock that ticks each second while something counts down. */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

export default function Panel({open, onClose, selection, onSelectionChange, draft, onDraftChange, shortcutText}: PanelProps): ReactNode {
  const config = useBookragConfig();
  const strings = useStrings();
  const {siteConfig} = useDocusaurusContext();
  const store = useMemo(
    () =>
      getStore({
        apiUrl: config.apiUrl,
        filters: config.filters,
        bookId: config.bookId,
        storage: safeLocalStorage(),
        schedule: (flush) => window.requestAnimationFrame(flush),
      }),
    [config.apiUrl, config.filters, config.bookId],
  );
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState);
  const [composerError, setComposerError] = useState<string | null>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const logRef = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  const titleId = useId();

  const site = useMemo<SiteContext>(
    () => ({
      baseUrl: normalizeBaseUrl(siteConfig.baseUrl),
      origins: [originOf(siteConfig.url), window.location.origin].filter((o): o is string => Boolean(o)),
      docFiles: docFiles as Record<string, string>,
    }),
    [siteConfig.baseUrl, siteConfig.url],
  );

  const counting = state.messages.some((m) => m.role === 'assistant' && m.error?.retryAt && m.error.retryAt > Date.now());
  const now = useNow(open && counting);

  // Keep focus inside the dialog while it is open; give it back when it closes.
  useEffect(() => {
    if (!open || !dialogRef.current) return undefined;
    let trap: FocusTrap | null = createFocusTrap(dialogRef.current, {
      initialFocus: () => inputRef.current ?? dialogRef.current!,
      fallbackFocus: () => dialogRef.current!,
      escapeDeactivates: false,
      allowOutsideClick: true,
      returnFocusOnDeactivate: false,
    });
    try {
      trap.activate();
    } catch {
      trap = null;
    }
    return () => {
      trap?.deactivate();
    };
  }, [open]);

  useEffect(() => {
    if (!open) return undefined;
    const onKey = (event: KeyboardEvent) => {
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
    if (open && selection) inputRef.current?.focus();
  }, [open, selection]);

  // Follow the streaming answer unless the reader scrolled up to read.
  useEffect(() => {
    const log = logRef.current;
    if (log && stickToBottom.current) log.scrollTop = log.scrollHeight;
  }, [state.messages, open]);

  const onScroll = () => {
    const log = logRef.current;
    if (log) stickToBottom.current = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  };

  const onNavigate = useCallback(() => {
    if (window.matchMedia(PHONE).matches) onClose();
  }, [onClose]);

  const tooLong = draft.trim().length - config.maxQuestionLength;

  const ask = (text: string) => {
    const question = text.trim() || (selection ? strings.defaultSelectionQuestion : '');
    if (!question || state.busy) return;
    if (question.length > config.maxQuestionLength) {
      setComposerError(format(strings.errorTooLong, {detail: `${question.length} / ${config.maxQuestionLength}`}));
      return;
    }
    setComposerError(null);
    stickToBottom.current = true;
    store.ask(question, selection ?? undefined, pageTitle(document));
    onDraftChange('');
    onSelectionChange(null);
  };

  if (!open) return null;

  const empty = state.messages.length === 0;
  return (
    <div
      ref={dialogRef}
      className={`bookrag-panel bookrag-panel--${config.position}`}
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      data-testid="bookrag-panel">
      <header className="bookrag-panel__header">
        <h2 id={titleId} className="bookrag-panel__title">
          {strings.title}
        </h2>
        <button type="button" className="bookrag-button bookrag-button--ghost" onClick={() => store.newChat()} data-testid="bookrag-new-chat" disabled={empty}>
          {strings.newChat}
        </button>
        <button type="button" className="bookrag-icon-button" onClick={onClose} aria-label={strings.close} title={strings.close} data-testid="bookrag-close">
          <svg aria-hidden="true" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
            <path d="M18 6 6 18M6 6l12 12" />
          </svg>
        </button>
      </header>
      <div ref={logRef} className="bookrag-panel__log" role="log" aria-live="polite" aria-relevant="additions text" onScroll={onScroll}>
        {empty && (
          <div className="bookrag-welcome">
            <p>{strings.greeting}</p>
            {config.suggestedQuestions.length > 0 && (
              <>
                <p className="bookrag-welcome__heading">{strings.suggestedHeading}</p>
                <ul className="bookrag-suggestions">
                  {config.suggestedQuestions.map((question) => (
                    <li key={question}>
                      <button type="button" className="bookrag-suggestion" data-testid="bookrag-suggestion" onClick={() => ask(question)}>
                        {question}
                      </button>
                    </li>
                  ))}
                </ul>
              </>
            )}
          </div>
        )}
        {state.messages.map((message) =>
          message.role === 'user' ? (
            <div key={message.id} className="bookrag-question" data-testid="bookrag-question">
              <span className="bookrag-visually-hidden">{strings.you}: </span>
              {message.selection && (
                <blockquote className="bookrag-quote" data-testid="bookrag-quote">
                  {message.selection}
                </blockquote>
              )}
              <p>{message.text}</p>
            </div>
          ) : (
            <Answer
              key={message.id}
              message={message}
              strings={strings}
              site={site}
              onNavigate={onNavigate}
              onRetry={() => store.retry(message.id)}
              onRate={(score) => void store.rate(message.id, score)}
              now={now}
            />
          ),
        )}
      </div>
      <form
        className="bookrag-panel__composer"
        onSubmit={(event) => {
          event.preventDefault();
          ask(draft);
        }}>
        {selection && (
          <div className="bookrag-attached">
            <span className="bookrag-attached__label">{strings.selectionLabel}</span>
            <blockquote className="bookrag-quote bookrag-quote--attached" data-testid="bookrag-selection">
              {selection}
            </blockquote>
            <button type="button" className="bookrag-icon-button" aria-label={strings.removeSelection} title={strings.removeSelection} onClick={() => onSelectionChange(null)}>
              <svg aria-hidden="true" width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
                <path d="M18 6 6 18M6 6l12 12" />
              </svg>
            </button>
          </div>
        )}
        {(composerError || tooLong > 0) && (
          <p className="bookrag-error bookrag-error--too_long" data-testid="bookrag-error" data-kind="too_long" role="alert">
            {composerError ?? format(strings.charactersLeft, {count: tooLong})}
          </p>
        )}
        <div className="bookrag-composer__row">
          <label className="bookrag-visually-hidden" htmlFor={`${titleId}-input`}>
            {strings.inputLabel}
          </label>
          <textarea
            id={`${titleId}-input`}
            ref={inputRef}
            className="bookrag-input"
            data-testid="bookrag-input"
            rows={2}
            value={draft}
            placeholder={selection ? strings.placeholderSelection : strings.placeholder}
            onChange={(event) => {
              onDraftChange(event.target.value);
              if (composerError) setComposerError(null);
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
                event.preventDefault();
                ask(draft);
              }
            }}
          />
          {state.busy ? (
            <button type="button" className="bookrag-button bookrag-button--stop" onClick={() => store.stop()} data-testid="bookrag-stop">
              {strings.stop}
            </button>
          ) : (
            <button type="submit" className="bookrag-button bookrag-button--send" data-testid="bookrag-send" disabled={!draft.trim() && !selection}>
              {strings.send}
            </button>
          )}
        </div>
        <p className="bookrag-hint">
          {strings.hint}
          {shortcutText ? ` (${shortcutText})` : ''}
        </p>
      </form>
    </div>
  );
}
