import type { Source } from './urls';
export type ErrorKind = 'unreachable' | 'rate_limited' | 'too_long' | 'invalid' | 'unavailable' | 'not_ingested' | 'unknown_session' | 'interrupted' | 'server';
/** What went wrong, in terms the panel can explain. */
export declare class ChatError extends Error {
    readonly kind: ErrorKind;
    readonly status?: number | undefined;
    readonly retryAfter?: number | undefined;
    readonly code?: string | undefined;
    constructor(kind: ErrorKind, message: string, status?: number | undefined, retryAfter?: number | undefined, code?: string | undefined);
}
/** The last chunk of a turn: sources and where the turn was stored. */
export interface Closing {
    sources: Source[];
    session_id?: string;
    session_token?: string;
    message_id?: number;
    refused?: boolean;
    session_expired?: boolean;
    extractive?: boolean;
    degraded?: boolean;
}
export interface ChatInput {
    question: string;
    session_id?: string;
    selected_text?: string;
    filters?: Record<string, unknown>;
    page_title?: string;
    book_id?: string;
}
export interface StreamHandlers {
    onText(piece: string): void;
    onClosing(closing: Closing): void;
}
/** `apiUrl` + `path`, with exactly one slash between them. */
export declare function endpoint(apiUrl: string, path: string): string;
/** Seconds to wait from a `Retry-After` header (seconds or an HTTP date). */
export declare function parseRetryAfter(value: string | null, now?: number): number | undefined;
/** The error a non-2xx answer means. */
export declare function errorFromResponse(status: number, body: unknown, retryAfter: string | null): ChatError;
/** Apply one parsed server-sent event of `/chat/stream`; true once the stream has ended. */
export declare function handleEvent(event: {
    event?: string;
    data: string;
}, handlers: StreamHandlers): boolean;
/** Ask one question; resolves when the stream ends, rejects with `ChatError` (or an abort). */
export declare function streamChat(apiUrl: string, input: ChatInput, token: string | undefined, signal: AbortSignal, handlers: StreamHandlers): Promise<void>;
/** Rate an answer (1 or -1); the session's token proves it is the reader's. */
export declare function sendFeedback(apiUrl: string, sessionId: string, token: string | undefined, messageId: number, score: 1 | -1, bookId?: string): Promise<void>;
