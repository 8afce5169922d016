/**
 * One answer: its Markdown (sanitized, citations linked, links and images under the book's
 * policy), its sources, its state (refused, quoted without a model, degraded, stopped, failed)
 * and its actions (copy, thumbs up/down, retry).
 */
import { type ReactNode } from 'react';
import { type SiteContext } from '../../client/urls';
import type { AssistantMessage } from '../../client/store';
import type { Strings } from './strings';
/** Titles may arrive HTML-escaped; show them as the text they stand for (React escapes it). */
export declare function plainTitle(text: string): string;
interface AnswerProps {
    message: AssistantMessage;
    strings: Strings;
    site: SiteContext;
    onNavigate: () => void;
    onRetry: () => void;
    onRate: (score: 1 | -1) => void;
    now: number;
}
export default function Answer({ message, strings, site, onNavigate, onRetry, onRate, now }: AnswerProps): ReactNode;
export {};
