/** The plugin's options as the theme receives them (the plugin's global data). */
import { usePluginData } from '@docusaurus/useGlobalData';
export const PLUGIN_NAME = 'docusaurus-plugin-bookrag';
export function useBookragConfig() {
    return usePluginData(PLUGIN_NAME);
}
/** Fill `{name}` placeholders. */
export function format(template, values) {
    return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}
