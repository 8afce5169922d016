/**
 * The conversation: its session, its messages, the answer streaming now. One store per API URL,
 * created when the panel first loads and kept for the page's life (the panel may close and the
 * reader may navigate while an answer streams). Persisted in localStorage, so a reload resumes
 * the same session; React reads it through `useSyncExternalStore`.
 */
import { type ErrorKind } from './api';
import type { Source } from './urls';
export interface UserMessage {
    id: string;
    role: 'user';
    text: string;
    /** The page text the question is about (answered from it alone). */
    selection?: string;
    /** Title of the page the reader asked from. */
    page?: string;
}
export interface MessageError {
    kind: ErrorKind;
    message: string;
    /** When a retry may succeed (ms since the epoch), for rate limits and outages. */
    retryAt?: number;
}
export type AnswerStatus = 'streaming' | 'done' | 'stopped' | 'error';
export interface AssistantMessage {
    id: string;
    role: 'assistant';
    /** The user message this answers. */
    replyTo: string;
    text: string;
    status: AnswerStatus;
    sources: Source[];
    messageId?: number;
    refused?: boolean;
    extractive?: boolean;
    degraded?: boolean;
    sessionExpired?: boolean;
    /** The stored session was gone on the server, so this turn started a new one. */
    sessionRestarted?: boolean;
    error?: MessageError;
    feedback?: 1 | -1;
    feedbackFailed?: boolean;
}
export type Message = UserMessage | AssistantMessage;
export interface ChatState {
    sessionId?: string;
    sessionToken?: string;
    messages: Message[];
    /** An answer is streaming. */
    busy: boolean;
}
export interface StoreOptions {
    apiUrl: string;
    filters?: Record<string, unknown>;
    /** The book asked (the server's default when absent); each book keeps its own conversation. */
    bookId?: string;
    storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
    /** Schedules a repaint-sized batch of streamed text (requestAnimationFrame in browsers). */
    schedule?: (flush: () => void) => void;
}
export declare function storageKey(apiUrl: string, bookId?: string): string;
/** Read a saved conversation; an answer that was streaming when the page went away stopped. */
export declare function restore(raw: string | null): Omit<ChatState, 'busy'>;
export declare class ChatStore {
    private readonly options;
    private state;
    private listeners;
    private controller;
    private pending;
    private flushScheduled;
    constructor(options: StoreOptions);
    subscribe: (listener: () => void) => (() => void);
    getState: () => ChatState;
    private set;
    private save;
    private updateAnswer;
    private answer;
    /** Ask a question (about `selection` alone when given) from the page titled `page`. */
    ask(question: string, selection?: string, page?: string): void;
    /** Ask a failed question again, in place. */
    retry(answerId: string): void;
    /** Record that a question could not be sent at all (e.g. it is too long). */
    reject(question: string, error: MessageError, selection?: string): void;
    private flushText;
    private run;
    /** Stop the streaming answer (what arrived stays, marked incomplete). */
    stop(): void;
    /** Forget the conversation and start a new session with the next question. */
    newChat(): void;
    /** Rate an answer; a second vote replaces the first. */
    rate(answerId: string, score: 1 | -1): Promise<void>;
}
/** The page's one store for `apiUrl` and book. */
export declare function getStore(options: StoreOptions): ChatStore;
