export interface BookragConfig {
    apiUrl: string;
    title?: string;
    greeting?: string;
    suggestedQuestions: string[];
    position: 'bottom-right' | 'bottom-left';
    shortcut: string | false;
    selectToAsk: boolean;
    selectionSelector: string;
    strings: Record<string, string>;
    filters?: Record<string, unknown>;
    bookId?: string;
    maxQuestionLength: number;
}
export declare const PLUGIN_NAME = "docusaurus-plugin-bookrag";
export declare function useBookragConfig(): BookragConfig;
/** Fill `{name}` placeholders. */
export declare function format(template: string, values: Record<string, string | number>): string;
