import type { OptionValidationContext } from '@docusaurus/types';
export type Position = 'bottom-right' | 'bottom-left';
export interface PluginOptions {
    /** Base URL of the bookrag server (its `/chat/stream`, `/feedback` routes live below it). */
    apiUrl: string;
    /** Title of the chat panel; default: the translated "Ask the book". */
    title?: string;
    /** First message shown in an empty chat; default: a translated greeting. */
    greeting?: string;
    /** Questions offered as buttons in an empty chat. */
    suggestedQuestions: string[];
    /** Corner of the floating button and the panel. */
    position: Position;
    /** Keyboard shortcut that opens the chat (`mod` = Ctrl, or Cmd on Apple); `false` for none. */
    shortcut: string | false;
    /** Show "Ask about this" next to text selected in a page. */
    selectToAsk: boolean;
    /** CSS selector of the page parts where a selection offers "Ask about this". */
    selectionSelector: string;
    /** Replacements of the widget's UI strings, by key (see the README; untranslated sites). */
    strings: Record<string, string>;
    /** Search filters sent with every question (e.g. `{module: 'ros2'}`). */
    filters?: Record<string, unknown>;
    /** The book to ask, when the server answers from several (`GET /books`); default: the server's. */
    bookId?: string;
    /** Longest question the widget sends (the server's own limit). */
    maxQuestionLength: number;
}
export declare const DEFAULT_OPTIONS: Omit<PluginOptions, 'apiUrl'>;
/** Docusaurus calls this with the author's options; errors name the option. */
export declare function validateOptions({ validate, options, }: OptionValidationContext<Partial<PluginOptions>, PluginOptions>): PluginOptions;
