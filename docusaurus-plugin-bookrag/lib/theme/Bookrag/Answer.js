import { jsx as _jsx, jsxs as _jsxs, Fragment as _Fragment } from "react/jsx-runtime";
/**
 * One answer: its Markdown (sanitized, citations linked, links and images under the book's
 * policy), its sources, its state (refused, quoted without a model, degraded, stopped, failed)
 * and its actions (copy, thumbs up/down, retry).
 */
import { useEffect, useMemo, useState } from 'react';
import ReactMarkdown from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import { toString } from 'hast-util-to-string';
import Link from '@docusaurus/Link';
import CodeBlock from '@theme/CodeBlock';
import { ColorModeProvider } from '@docusaurus/theme-common/internal';
import { format } from '../../client/config';
import { SANITIZE_SCHEMA, rehypeCitations, rehypeLinkPolicy, remarkBookGfm } from '../../client/markdown';
import { originOf, schemeOf, sourcePath } from '../../client/urls';
/** Titles may arrive HTML-escaped; show them as the text they stand for (React escapes it). */
export function plainTitle(text) {
    return text
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&#x?0*27;|&apos;/g, "'")
        .replace(/&amp;/g, '&');
}
function sourceLabel(source) {
    const title = plainTitle(source.title ?? '');
    const heading = source.heading ? plainTitle(source.heading) : '';
    return heading && heading !== title ? `${title} › ${heading}` : title;
}
/** A link to a cited section: in-site navigation when the URL is under the site's base URL. */
function SourceLink({ source, site, onNavigate, children, testId, label }) {
    const path = sourcePath(source.url, site.baseUrl);
    if (path) {
        return (_jsx(Link, { to: path, autoAddBaseUrl: false, "data-testid": testId, "aria-label": label, title: label, onClick: onNavigate, children: children }));
    }
    const scheme = schemeOf(source.url);
    if (scheme !== 'http' && scheme !== 'https') {
        return (_jsx("span", { "data-testid": testId, title: label, children: children }));
    }
    return (_jsx("a", { href: source.url, target: "_blank", rel: "noopener noreferrer", "data-testid": testId, "aria-label": label, title: label, children: children }));
}
/** The site's `data-theme`, followed live (the code blocks' colours depend on it). */
function useDataTheme() {
    const [theme, setTheme] = useState(() => document.documentElement.dataset.theme ?? 'light');
    useEffect(() => {
        const observer = new MutationObserver(() => setTheme(document.documentElement.dataset.theme ?? 'light'));
        observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
        return () => observer.disconnect();
    }, []);
    return theme;
}
function errorText(message, strings, now) {
    const error = message.error;
    const seconds = error.retryAt ? Math.max(0, Math.ceil((error.retryAt - now) / 1000)) : undefined;
    switch (error.kind) {
        case 'unreachable':
            return strings.errorUnreachable;
        case 'rate_limited':
            return seconds ? format(strings.errorRateLimited, { seconds }) : strings.errorRateLimitedOver;
        case 'too_long':
            return format(strings.errorTooLong, { detail: error.message });
        case 'invalid':
            return format(strings.errorInvalid, { detail: error.message });
        case 'unavailable':
            return format(strings.errorUnavailable, { seconds: seconds ?? 5 });
        case 'not_ingested':
            return strings.errorNotIngested;
        case 'interrupted':
            return format(strings.errorInterrupted, { detail: error.message });
        default:
            return format(strings.errorServer, { detail: error.message });
    }
}
export default function Answer({ message, strings, site, onNavigate, onRetry, onRate, now }) {
    const [copied, setCopied] = useState(false);
    const theme = useDataTheme();
    const sources = message.sources;
    const answerSite = useMemo(() => {
        const origins = new Set(site.origins);
        for (const source of sources) {
            const origin = originOf(source.url);
            if (origin)
                origins.add(origin);
        }
        return { ...site, origins: [...origins] };
    }, [site, sources]);
    const components = useMemo(() => ({
        a({ node: _node, href, children, ...props }) {
            const internal = props['data-internal'];
            if (internal && href) {
                return (_jsx(Link, { to: href, autoAddBaseUrl: false, onClick: onNavigate, children: children }));
            }
            return (_jsx("a", { href: href, target: "_blank", rel: "noopener noreferrer", children: children }));
        },
        sup({ node: _node, children, ...props }) {
            const cite = props['data-cite'];
            if (cite === undefined)
                return _jsx("sup", { children: children });
            const n = Number(cite);
            const source = sources.find((s) => s.n === n);
            if (!source)
                return _jsxs("sup", { className: "bookrag-cite bookrag-cite--pending", children: ["[", n, "]"] });
            const label = format(strings.citation, { n, title: sourceLabel(source) });
            return (_jsx("sup", { className: "bookrag-cite", children: _jsx(SourceLink, { source: source, site: answerSite, onNavigate: onNavigate, testId: "bookrag-citation", label: label, children: n }) }));
        },
        pre({ node }) {
            const code = (node?.children ?? []).find((child) => child.type === 'element' && child.tagName === 'code');
            const classes = code?.properties?.className;
            const language = (Array.isArray(classes) ? classes : [])
                .map(String)
                .find((name) => name.startsWith('language-'))
                ?.slice('language-'.length);
            const text = code ? toString(code).replace(/\n$/, '') : '';
            return (_jsx(ColorModeProvider, { children: _jsx(CodeBlock, { language: language, children: text }) }, theme));
        },
    }), [sources, answerSite, onNavigate, strings, theme]);
    const copy = async () => {
        try {
            await navigator.clipboard.writeText(message.text);
            setCopied(true);
            setTimeout(() => setCopied(false), 2000);
        }
        catch {
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
    return (_jsxs("div", { className: `bookrag-answer bookrag-answer--${state}`, "data-testid": "bookrag-answer", "data-state": state, "data-status": message.status, children: [message.sessionRestarted && _jsx("p", { className: "bookrag-note", children: strings.sessionRestarted }), message.sessionExpired && _jsx("p", { className: "bookrag-note", children: strings.sessionExpired }), message.refused && (_jsx("p", { className: "bookrag-badge bookrag-badge--refused", "data-testid": "bookrag-refused", children: strings.refused })), message.degraded && (_jsx("p", { className: "bookrag-badge bookrag-badge--degraded", "data-testid": "bookrag-degraded", children: strings.degraded })), message.text ? (_jsx("div", { className: "bookrag-markdown", "data-testid": "bookrag-answer-text", children: _jsx(ReactMarkdown, { remarkPlugins: [remarkBookGfm], rehypePlugins: [[rehypeSanitize, SANITIZE_SCHEMA], rehypeCitations, [rehypeLinkPolicy, { site: answerSite, sources }]], components: components, children: message.text }) })) : (streaming && (_jsxs("p", { className: "bookrag-writing", children: [_jsx("span", { className: "bookrag-dots", "aria-hidden": "true" }), strings.writing] }))), message.status === 'stopped' && _jsx("p", { className: "bookrag-note bookrag-note--stopped", children: strings.stopped }), message.status === 'error' && message.error && (_jsxs("div", { className: `bookrag-error bookrag-error--${message.error.kind}`, "data-testid": "bookrag-error", "data-kind": message.error.kind, role: "alert", children: [_jsx("p", { children: errorText(message, strings, now) }), message.error.kind !== 'too_long' && message.error.kind !== 'invalid' && (_jsx("button", { type: "button", className: "bookrag-button", onClick: onRetry, disabled: retryWait > 0, children: strings.retry }))] })), sources.length > 0 && !message.refused && (_jsxs("div", { className: "bookrag-sources", children: [_jsx("p", { className: "bookrag-sources__title", children: strings.sources }), _jsx("ol", { children: sources.map((source) => (_jsx("li", { value: source.n, children: _jsx(SourceLink, { source: source, site: answerSite, onNavigate: onNavigate, testId: "bookrag-source", children: sourceLabel(source) }) }, source.n))) })] })), message.status === 'done' && message.extractive && !message.degraded && !message.refused && (_jsx("p", { className: "bookrag-badge bookrag-badge--extractive", "data-testid": "bookrag-extractive", children: strings.extractive })), (message.status === 'done' || message.status === 'stopped') && message.text && (_jsxs("div", { className: "bookrag-actions", children: [_jsx("button", { type: "button", className: "bookrag-icon-button", onClick: copy, "aria-label": strings.copy, title: strings.copy, "data-testid": "bookrag-copy", children: copied ? strings.copied : _jsx(CopyIcon, {}) }), message.messageId !== undefined && message.status === 'done' && (_jsxs(_Fragment, { children: [_jsx("button", { type: "button", className: "bookrag-icon-button", "aria-label": strings.helpful, title: strings.helpful, "aria-pressed": message.feedback === 1, "data-testid": "bookrag-feedback-up", onClick: () => onRate(1), children: _jsx(ThumbIcon, {}) }), _jsx("button", { type: "button", className: "bookrag-icon-button bookrag-icon-button--down", "aria-label": strings.notHelpful, title: strings.notHelpful, "aria-pressed": message.feedback === -1, "data-testid": "bookrag-feedback-down", onClick: () => onRate(-1), children: _jsx(ThumbIcon, {}) })] })), _jsx("span", { className: "bookrag-actions__status", role: "status", children: message.feedbackFailed ? strings.feedbackFailed : message.feedback ? strings.feedbackThanks : '' })] }))] }));
}
function CopyIcon() {
    return (_jsxs("svg", { "aria-hidden": "true", width: "16", height: "16", viewBox: "0 0 24 24", fill: "none", stroke: "currentColor", strokeWidth: "2", children: [_jsx("rect", { x: "9", y: "9", width: "13", height: "13", rx: "2" }), _jsx("path", { d: "M5 15H4a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v1" })] }));
}
function ThumbIcon() {
    return (_jsx("svg", { "aria-hidden": "true", width: "16", height: "16", viewBox: "0 0 24 24", fill: "none", stroke: "currentColor", strokeWidth: "2", children: _jsx("path", { d: "M7 10v12M15 5.88 14 10h5.83a2 2 0 0 1 1.92 2.56l-2.33 8A2 2 0 0 1 17.5 22H4a2 2 0 0 1-2-2v-8a2 2 0 0 1 2-2h2.76a2 2 0 0 0 1.79-1.11L12 2a3.13 3.13 0 0 1 3 3.88Z" }) }));
}
