// tsc compiles the TypeScript; the theme's CSS files are copied beside the compiled modules.
import {cpSync, readdirSync, statSync} from 'node:fs';
import {join, relative} from 'node:path';

const src = new URL('../src', import.meta.url).pathname;
const out = new URL('../lib', import.meta.url).pathname;

function copyCss(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) copyCss(path);
    else if (name.endsWith('.css')) cpSync(path, join(out, relative(src, path)));
  }
}
copyCss(src);
