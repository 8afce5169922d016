"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEFAULT_OPTIONS = void 0;
exports.validateOptions = validateOptions;
/**
 * The plugin's options, as an author writes them in `docusaurus.config.js`, and their checks.
 * Everything but `apiUrl` has a default; the README lists every option.
 */
const utils_validation_1 = require("@docusaurus/utils-validation");
exports.DEFAULT_OPTIONS = {
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
const schema = utils_validation_1.Joi.object({
    apiUrl: utils_validation_1.Joi.string()
        .uri({ allowRelative: true })
        .required()
        .messages({ 'any.required': 'docusaurus-plugin-bookrag needs `apiUrl`: the URL of the bookrag server' }),
    title: utils_validation_1.Joi.string(),
    greeting: utils_validation_1.Joi.string(),
    suggestedQuestions: utils_validation_1.Joi.array().items(utils_validation_1.Joi.string().min(1).max(2000)).default(exports.DEFAULT_OPTIONS.suggestedQuestions),
    position: utils_validation_1.Joi.string().valid('bottom-right', 'bottom-left').default(exports.DEFAULT_OPTIONS.position),
    shortcut: utils_validation_1.Joi.alternatives()
        .try(utils_validation_1.Joi.string().pattern(SHORTCUT), utils_validation_1.Joi.boolean().valid(false))
        .default(exports.DEFAULT_OPTIONS.shortcut),
    selectToAsk: utils_validation_1.Joi.boolean().default(exports.DEFAULT_OPTIONS.selectToAsk),
    selectionSelector: utils_validation_1.Joi.string().default(exports.DEFAULT_OPTIONS.selectionSelector),
    strings: utils_validation_1.Joi.object().pattern(utils_validation_1.Joi.string(), utils_validation_1.Joi.string()).default(exports.DEFAULT_OPTIONS.strings),
    filters: utils_validation_1.Joi.object().unknown(true),
    bookId: utils_validation_1.Joi.string().min(1).max(100),
    maxQuestionLength: utils_validation_1.Joi.number().integer().min(1).default(exports.DEFAULT_OPTIONS.maxQuestionLength),
    id: utils_validation_1.Joi.string(),
});
/** Docusaurus calls this with the author's options; errors name the option. */
function validateOptions({ validate, options, }) {
    return validate(schema, options);
}
