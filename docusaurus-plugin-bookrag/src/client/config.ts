/** The plugin's options as the theme receives them (the plugin's global data). */
import {usePluginData} from '@docusaurus/useGlobalData';

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

export const PLUGIN_NAME = 'docusaurus-plugin-bookrag';

export function useBookragConfig(): BookragConfig {
  return usePluginData(PLUGIN_NAME) as BookragConfig;
}

/** Fill `{name}` placeholders. */
export function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
