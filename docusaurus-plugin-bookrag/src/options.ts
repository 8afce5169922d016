/**
 * The plugin's options, as an author writes them in `docusaurus.config.js`, and their checks.
 * Everything but `apiUrl` has a default; the README lists every option.
 */
import {Joi} from '@docusaurus/utils-validation';
import type {OptionValidationContext} from '@docusaurus/types';

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

export const DEFAULT_OPTIONS: Omit<PluginOptions, 'apiUrl'> = {
  suggestedQuestions: [],
  position: 'bottom-right',
  shortcut: 'mod+/',
  selectToAsk: true,
  selectionSelector: 'article',
  strings: {},
  maxQuestionLength: 2000,
};

/** A shortcut is `+`-joined modifiers (mod, ctrl, meta, cmd, alt, option, shift) and one key. */
const SHORTCUT = /^((mod|ctrl|control|meta|cmd|alt|option|shift)\+)*[^+\s]+$/i;

const schema = Joi.object<PluginOptions & {id?: string}>({
  apiUrl: Joi.string()
    .uri({allowRelative: true})
    .required()
    .messages({'any.required': 'docusaurus-plugin-bookrag needs `apiUrl`: the URL of the bookrag server'}),
  title: Joi.string(),
  greeting: Joi.string(),
  suggestedQuestions: Joi.array().items(Joi.string().min(1).max(2000)).default(DEFAULT_OPTIONS.suggestedQuestions),
  position: Joi.string().valid('bottom-right', 'bottom-left').default(DEFAULT_OPTIONS.position),
  shortcut: Joi.alternatives()
    .try(Joi.string().pattern(SHORTCUT), Joi.boolean().valid(false))
    .default(DEFAULT_OPTIONS.shortcut),
  selectToAsk: Joi.boolean().default(DEFAULT_OPTIONS.selectToAsk),
  selectionSelector: Joi.string().default(DEFAULT_OPTIONS.selectionSelector),
  strings: Joi.object().pattern(Joi.string(), Joi.string()).default(DEFAULT_OPTIONS.strings),
  filters: Joi.object().unknown(true),
  bookId: Joi.string().min(1).max(100),
  maxQuestionLength: Joi.number().integer().min(1).default(DEFAULT_OPTIONS.maxQuestionLength),
  id: Joi.string(),
});

/** Docusaurus calls this with the author's options; errors name the option. */
export function validateOptions({
  validate,
  options,
}: OptionValidationContext<Partial<PluginOptions>, PluginOptions>): PluginOptions {
  return validate(schema, options);
}
