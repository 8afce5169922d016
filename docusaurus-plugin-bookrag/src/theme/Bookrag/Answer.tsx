/**
 * One answer: its Markdown (sanitized, citations linked, links and images under the book's
 * policy), its sources, its state (refused, quoted without a model, degraded, stopped, failed)
 * and its actions (copy, thumbs up/down, retry).
 */
import React, {useEffect, useMemo, useState, type ReactNode} from 'react';
import ReactMarkdown, {type Components} from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import {toString} from 'hast-util-to-string';
import type {Element} from 'hast';
import Link from '@docusaurus/Link';
import CodeBlock from '@theme/CodeBlock';
import {ColorModeProvider} from '@docusaurus/theme-common/internal';
import {format} from '../../client/config';
import {SANITIZE_SCHEMA, rehypeCitations, rehypeLinkPolicy, remarkBookGfm} from '../../client/markdown';
import {originOf, schemeOf, sourcePath, type SiteContext, type Source} from '../../client/urls';
import type {AssistantMessage} from '../../client/store';
import type {Strings} from './strings';

/** Titles may arrive HTML-escaped; show them as the text they stand for (React escapes it). */
export function plainTitle(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x?0*27;|&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

function sourceLabel(source: Source): string {
  const title = plainTitle(source.title ?? '');
  const heading = source.heading ? plainTitle(source.heading) : '';
  return heading && heading !== title ? `${title} › ${heading}` : title;
}

interface SourceLinkProps {
  source: Source;
  site: SiteContext;
  onNavigate: () => void;
  children: ReactNode;
  testId: string;
  label?: string;
}

/** A link to a cited section: in-site navigation when the URL is under the site's base URL. */
function SourceLink({source, site, onNavigate, children, testId, label}: SourceLinkProps): ReactNode {
  const path = sourcePath(source.url, site.baseUrl);
  if (path) {
    return (
      <Link to={path} autoAddBaseUrl={false} data-testid={testId} aria-label={label} title={label} onClick={onNavigate}>
        {children}
      </Link>
    );
  }
  const scheme = schemeOf(source.url);
  if (scheme !== 'http' && scheme !== 'https') {
    return (
      <span data-testid={testId} title={label}>
        {children}
      </span>
    );
  }
  return (
    <a href={source.url} target="_blank" rel="noopener noreferrer" data-testid={testId} aria-label={label} title={label}>
      {children}
    </a>
  );
}

/** The site's `data-theme`, followed live (the code blocks' colours depend on it). */
function useDataTheme(): string {
  const [theme, setTheme] = useState(() => document.documentElement.dataset.theme ?? 'light');
  useEffect(() => {
    const observer = new MutationObserver(() => setTheme(document.documentElement.dataset.theme ?? 'light'));
    observer.observe(document.documentElement, {attributes: true, attributeFilter: ['data-theme']});
    return () => observer.disconnect();
  }, []);
  return theme;
}

interface AnswerProps {
  message: AssistantMessage;
  strings: Strings;
  site: SiteContext;
  onNavigate: () => void;
  onRetry: () => void;
  onRate: (score: 1 | -1) => void;
  now: number;
}

function errorText(message: AssistantMessage, strings: Strings, now: number): string {
  const error = message.error!;
  const seconds = error.retryAt ? Math.max(0, Math.ceil((error.retryAt - now) / 1000)) : undefined;
  switch (error.kind) {
    case 'unreachable':
      return strings.errorUnreachable;
    case 'rate_limited':
      return seconds ? format(strings.errorRateLimited, {seconds}) : strings.errorRateLimitedOver;
    case 'too_long':
      return format(strings.errorTooLong, {detail: error.message});
    case 'invalid':
      return format(strings.errorInvalid, {detail: error.message});
    case 'unavailable':
      return format(strings.errorUnavailable, {seconds: seconds ?? 5});
    case 'not_ingested':
      return strings.errorNotIngested;
    case 'interrupted':
      return format(strings.errorInterrupted, {detail: error.message});
    default:
      return format(strings.errorServer, {detail: error.message});
  }
}

export default function Answer({message, strings, site, onNavigate, onRetry, onRate, now}: AnswerProps): ReactNode {
  const [copied, setCopied] = useState(false);
  const theme = useDataTheme();
  const sources = message.sources;
  const answerSite = useMemo<SiteContext>(() => {
    const origins = new Set(site.origins);
    for (const source of sources) {
      const origin = originOf(source.url);
      if (origin) origins.add(origin);
    }
    return {...site, origins: [...origins]};
  }, [site, sources]);

  const components = useMemo<Components>(
    () => ({
      a({node: _node, href, children, ...props}) {
        const internal = (props as Record<string, unknown>)['data-internal'];
        if (internal && href) {
          return (
            <Link to={href} autoAddBaseUrl={false} onClick={onNavigate}>
              {children}
            </Link>
          );
        }
        return (
          <a href={href} target="_blank" rel="noopener noreferrer">
            {children}
          </a>
        );
      },
      sup({node: _node, children, ...props}) {
        const cite = (props as Record<string, unknown>)['data-cite'];
        if (cite === undefined) return <sup>{children}</sup>;
        const n = Number(cite);
        const source = sources.find((s) => s.n === n);
        if (!source) return <sup className="bookrag-cite bookrag-cite--pending">[{n}]</sup>;
        const label = format(strings.citation, {n, title: sourceLabel(source)});
        return (
          <sup className="bookrag-cite">
            <SourceLink source={source} site={answerSite} onNavigate={onNavigate} testId="bookrag-citation" label={label}>
              {n}
            </SourceLink>
          </sup>
        );
      },
      pre({node}) {
        const code = (node?.children ?? []).find((child): child is Element => child.type === 'element' && child.tagName === 'code');
        const classes = code?.properties?.className;
        const language = (Array.isArray(classes) ? classes : [])
          .map(String)
          .find((name) => name.startsWith('language-'))
          ?.slice('language-'.length);
        const text = code ? toString(code).replace(/\n$/, '') : '';
        return (
          <ColorModeProvider key={theme}>
            <CodeBlock language={language}>{text}</CodeBlock>
          </ColorModeProvider>
        );
      },
    }),
    [sources, answerSite, onNavigate, strings, theme],
  );

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(message.text);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  };

  const state = message.status === 'error'
    ? `error-${message.error?.kind}`
    : message.refused
      ? 'refused'
      : message.degraded
        ? 'degraded'
        : message.extractive
          ? 'extractive'
          : message.status;
  const streaming = message.status === 'streaming';
  const retryWait = message.error?.retryAt ? message.error.retryAt - now : 0;
  return (
    <div className={`bookrag-answer bookrag-answer--${state}`} data-testid="bookrag-answer" data-state={state} data-status={message.status}>
      {message.sessionRestarted && <p className="bookrag-note">{strings.sessionRestarted}</p>}
      {message.sessionExpired && <p className="bookrag-note">{strings.sessionExpired}</p>}
      {message.refused && (
        <p className="bookrag-badge bookrag-badge--refused" data-testid="bookrag-refused">
          {strings.refused}
        </p>
      )}
      {message.degraded && (
        <p className="bookrag-badge bookrag-badge--degraded" data-testid="bookrag-degraded">
          {strings.degraded}
        </p>
      )}
      {message.text ? (
        <div className="bookrag-markdown" data-testid="bookrag-answer-text">
          <ReactMarkdown
            remarkPlugins={[remarkBookGfm]}
            rehypePlugins={[[rehypeSanitize, SANITIZE_SCHEMA], rehypeCitations, [rehypeLinkPolicy, {site: answerSite, sources}]]}
            components={components}>
            {message.text}
          </ReactMarkdown>
        </div>
      ) : (
        streaming && (
          <p className="bookrag-writing">
            <span className="bookrag-dots" aria-hidden="true" />
            {strings.writing}
          </p>
        )
      )}
      {message.status === 'stopped' && <p className="bookrag-note bookrag-note--stopped">{strings.stopped}</p>}
      {message.status === 'error' && message.error && (
        <div className={`bookrag-error bookrag-error--${message.error.kind}`} data-testid="bookrag-error" data-kind={message.error.kind} role="alert">
          <p>{errorText(message, strings, now)}</p>
          {message.error.kind !== 'too_long' && message.error.kind !== 'invalid' && (
            <button type="button" className="bookrag-button" onClick={onRetry} disabled={retryWait > 0}>
              {strings.retry}
            </button>
          )}
        </div>
      )}
      {sources.length > 0 && !message.refused && (
        <div className="bookrag-sources">
          <p className="bookrag-sources__title">{strings.sources}</p>
          <ol>
            {sources.map((source) => (
              <li key={source.n} value={source.n}>
                <SourceLink source={source} site={answerSite} onNavigate={onNavigate} testId="bookrag-source">
                  {sourceLabel(source)}
                </SourceLink>
              </li>
            ))}
          </ol>
        </div>
      )}
      {message.status === 'done' && message.extractive && !message.degraded && !message.refused && (
        <p className="bookrag-badge bookrag-badge--extractive" data-testid="bookrag-extractive">
          {strings.extractive}
        </p>
      )}
      {(message.status === 'done' || message.status === 'stopped') && message.text && (
        <div className="bookrag-actions">
          <button type="button" className="bookrag-icon-button" onClick={copy} aria-label={strings.copy} title={strings.copy} data-testid="bookrag-copy">
            {copied ? strings.copied : <CopyIcon />}
          </button>
          {message.messageId !== undefined && message.status === 'done' && (
            <>
              <button
                type="button"
                className="bookrag-icon-button"
                aria-label={strings.helpful}
                title={strings.helpful}
                aria-pressed={message.feedback === 1}
                data-testid="bookrag-feedback-up"
                onClick={() => onRate(1)}>
                <ThumbIcon />
              </button>
              <button
                type="button"
                className="bookrag-icon-button bookrag-icon-button--down"
                aria-label={strings.notHelpful}
                title={strings.notHelpful}
                aria-pressed={message.feedback === -1}
                data-testid="bookrag-feedback-down"
                onClick={() => onRate(-1)}>
                <ThumbIcon />
              </button>
            </>
          )}
          <span className="bookrag-actions__status" role="status">
            {message.feedbackFailed ? strings.feedbackFailed : message.feedback ? strings.feedbackThanks : ''}
          </span>
        </div>
      )}
    </div>
  );
}

function CopyIcon(): ReactNode {
  return (
    <svg aria-hidden="true" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
      <rect x="9" y="9" width="13" height="13" rx="2" />
      <path d="M5 15H4a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v1" />
    </svg>
  );
}

function ThumbIcon(): ReactNode {
  return (
    <svg aria-hidden="true" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
      <path d="M7 10v12M15 5.88 14 10h5.83a2 2 0 0 1 1.92 2.56l-2.33 8A2 2 0 0 1 17.5 22H4a2 2 0 0 1-2-2v-8a2 2 0 0 1 2-2h2.76a2 2 0 0 0 1.79-1.11L12 2a3.13 3.13 0 0 1 3 3.88Z" />
    </svg>
  );
}
