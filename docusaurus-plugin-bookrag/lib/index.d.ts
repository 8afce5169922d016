import type { LoadContext, Plugin } from '@docusaurus/types';
import type { PluginOptions } from './options';
export { validateOptions } from './options';
export type { PluginOptions, Position } from './options';
export declare const PLUGIN_NAME = "docusaurus-plugin-bookrag";
export default function pluginBookrag(context: LoadContext, options: PluginOptions): Plugin<void>;
