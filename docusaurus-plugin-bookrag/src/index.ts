/**
 * docusaurus-plugin-bookrag: the reader's chat with the book on every page.
 *
 * The plugin gives the site a theme `Root` (which never unmounts, so a conversation survives
 * client-side navigation) and hands the options to it as global data. The `Root` holds only the
 * floating button, the keyboard shortcut and "Ask about this"; the panel, its Markdown renderer
 * and its stream client load with `import()` the first time the chat opens.
 */
import path from 'path';
import type {LoadContext, Plugin} from '@docusaurus/types';

/** What the panel needs of the docs plugin's content (its other fields are not read). */
interface DocsContent {
  loadedVersions?: Array<{isLast?: boolean; contentPath: string; docs: Array<{source: string; permalink: string}>}>;
}

/** Every doc's Markdown file (relative to its docs folder) → its route, of each docs instance's
 * current version: how a relative link of a quoted page (`../intro.md`) finds its page. */
function docFiles(siteDir: string, docs: Record<string, DocsContent> | undefined): Record<string, string> {
  const files: Record<string, string> = {};
  for (const instance of Object.values(docs ?? {})) {
    const version = instance.loadedVersions?.find((v) => v.isLast) ?? instance.loadedVersions?.[0];
    for (const doc of version?.docs ?? []) {
      const absolute = path.join(siteDir, doc.source.replace(/^@site\//, ''));
      const relative = path.relative(version!.contentPath, absolute).split(path.sep).join('/');
      if (!relative.startsWith('..')) files[relative] ??= doc.permalink;
    }
  }
  return files;
}
import type {PluginOptions} from './options';

export {validateOptions} from './options';
export type {PluginOptions, Position} from './options';

export const PLUGIN_NAME = 'docusaurus-plugin-bookrag';
/** Generated data the panel imports (`@generated/docusaurus-plugin-bookrag/default/...`). */
const DOC_FILES = 'doc-files.json';

export default function pluginBookrag(context: LoadContext, options: PluginOptions): Plugin<void> {
  return {
    name: PLUGIN_NAME,

    getThemePath() {
      return path.resolve(__dirname, './theme');
    },

    getTypeScriptThemePath() {
      return path.resolve(__dirname, '../src/theme');
    },

    async contentLoaded({actions}) {
      const {id: _id, ...config} = options as PluginOptions & {id?: string};
      actions.setGlobalData(config);
      await actions.createData(DOC_FILES, '{}'); // replaced once every plugin's content is loaded
    },

    async allContentLoaded({allContent, actions}) {
      const docs = allContent['docusaurus-plugin-content-docs'] as Record<string, DocsContent> | undefined;
      await actions.createData(DOC_FILES, JSON.stringify(docFiles(context.siteDir, docs)));
    },
  };
}
