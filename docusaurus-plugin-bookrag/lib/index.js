"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.PLUGIN_NAME = exports.validateOptions = void 0;
exports.default = pluginBookrag;
/**
 * docusaurus-plugin-bookrag: the reader's chat with the book on every page.
 *
 * The plugin gives the site a theme `Root` (which never unmounts, so a conversation survives
 * client-side navigation) and hands the options to it as global data. The `Root` holds only the
 * floating button, the keyboard shortcut and "Ask about this"; the panel, its Markdown renderer
 * and its stream client load with `import()` the first time the chat opens.
 */
const path_1 = __importDefault(require("path"));
/** Every doc's Markdown file (relative to its docs folder) → its route, of each docs instance's
 * current version: how a relative link of a quoted page (`../intro.md`) finds its page. */
function docFiles(siteDir, docs) {
    const files = {};
    for (const instance of Object.values(docs ?? {})) {
        const version = instance.loadedVersions?.find((v) => v.isLast) ?? instance.loadedVersions?.[0];
        for (const doc of version?.docs ?? []) {
            const absolute = path_1.default.join(siteDir, doc.source.replace(/^@site\//, ''));
            const relative = path_1.default.relative(version.contentPath, absolute).split(path_1.default.sep).join('/');
            if (!relative.startsWith('..'))
                files[relative] ?? (files[relative] = doc.permalink);
        }
    }
    return files;
}
var options_1 = require("./options");
Object.defineProperty(exports, "validateOptions", { enumerable: true, get: function () { return options_1.validateOptions; } });
exports.PLUGIN_NAME = 'docusaurus-plugin-bookrag';
/** Generated data the panel imports (`@generated/docusaurus-plugin-bookrag/default/...`). */
const DOC_FILES = 'doc-files.json';
function pluginBookrag(context, options) {
    return {
        name: exports.PLUGIN_NAME,
        getThemePath() {
            return path_1.default.resolve(__dirname, './theme');
        },
        getTypeScriptThemePath() {
            return path_1.default.resolve(__dirname, '../src/theme');
        },
        async contentLoaded({ actions }) {
            const { id: _id, ...config } = options;
            actions.setGlobalData(config);
            await actions.createData(DOC_FILES, '{}'); // replaced once every plugin's content is loaded
        },
        async allContentLoaded({ allContent, actions }) {
            const docs = allContent['docusaurus-plugin-content-docs'];
            await actions.createData(DOC_FILES, JSON.stringify(docFiles(context.siteDir, docs)));
        },
    };
}
