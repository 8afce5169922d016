// What the plugin adds to every page's first load: its theme Root with the button, the shortcut
// and select-to-ask, bundled and minified as a site's production build would (React, Docusaurus
// and the lazily imported panel left out), plus its CSS (all of it: Docusaurus merges every CSS
// file of the site, lazy chunks' too, into one styles.css) and its global data, gzipped.
// The panel's own size is measured on the real built site by the browser tests (latency.spec.ts).
import {build} from 'esbuild';
import {gzipSync} from 'node:zlib';
import {readFileSync} from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
const result = await build({
  entryPoints: [`${root}lib/theme/Root.js`],
  bundle: true,
  minify: true,
  write: false,
  format: 'esm',
  target: 'es2020',
  define: {'process.env.NODE_ENV': '"production"'},
  external: ['react', 'react/*', 'react-dom', '@docusaurus/*', '@theme/*', '@generated/*', './Panel', '*.css'],
  plugins: [
    {
      name: 'panel-is-lazy',
      setup(b) {
        b.onResolve({filter: /\.\/Panel$/}, (args) => ({path: args.path, external: true}));
      },
    },
  ],
});
const js = result.outputFiles[0].contents;
const css = Buffer.concat([readFileSync(`${root}lib/theme/Bookrag/launcher.css`), readFileSync(`${root}lib/theme/Bookrag/panel.css`)]);
const cssMin = Buffer.from(css.toString().replace(/\/\*[\s\S]*?\*\//g, '').replace(/\s+/g, ' '));
const globalData = Buffer.from(JSON.stringify({apiUrl: 'http://127.0.0.1:8000', suggestedQuestions: ['Which QoS setting makes DDS retransmit lost messages?', 'How do I describe a robot with URDF?', 'What is a vision-language-action model?'], position: 'bottom-right', shortcut: 'mod+/', selectToAsk: true, selectionSelector: 'article', strings: {}, maxQuestionLength: 2000}));
const gz = (buffer) => gzipSync(buffer, {level: 9}).length;
const sizes = {
  first_load_js_gzip_bytes: gz(js),
  first_load_css_gzip_bytes: gz(cssMin),
  global_data_gzip_bytes: gz(globalData),
};
sizes.first_load_total_gzip_bytes = sizes.first_load_js_gzip_bytes + sizes.first_load_css_gzip_bytes + sizes.global_data_gzip_bytes;
console.log(JSON.stringify(sizes));
