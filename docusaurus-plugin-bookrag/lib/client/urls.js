/**
 * Where a link or image of an answer may go, and how book URLs become in-site paths.
 *
 * Pure functions (no DOM, no React), so the policy is unit-tested on its own:
 * - a source URL whose path lies under the site's `baseUrl` is an in-site path, whatever its
 *   origin (the server knows the site by its configured SITE_URL, which need not be where the
 *   reader opened it);
 * - a link of the answer is in-site when it is relative, or absolute on one of the site's own
 *   origins; relative links were written against the Markdown source of the quoted page, so
 *   they are resolved against that page (`.md`/`.mdx` stripped, `./`, `../`, `index`/`README`);
 * - every other http(s) or mailto link is off-site; any other scheme is no link at all;
 * - an image is shown only from the site itself.
 */
const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;
const NUMBER_PREFIX = /^\d+[-_.]/;
const MARKDOWN_EXTENSION = /\.mdx?$/i;
const INDEX_NAME = /^(index|readme)$/i;
/** Undo what a browser would ignore in a URL's scheme (controls, whitespace) before judging it. */
function scrub(url) {
    // eslint-disable-next-line no-control-regex
    return url.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
}
/** The scheme of `url` in lower case, or null for a relative URL. */
export function schemeOf(url) {
    const match = SCHEME.exec(scrub(url));
    return match ? match[1].toLowerCase() : null;
}
/** `/a/b/` for `a/b`, `/a/b`, `/a/b/`; `/` for empty. */
export function normalizeBaseUrl(baseUrl) {
    const trimmed = baseUrl.replace(/^\/+|\/+$/g, '');
    return trimmed ? `/${trimmed}/` : '/';
}
/** Whether `pathname` is the base URL itself or below it. */
export function isUnderBase(pathname, baseUrl) {
    const base = normalizeBaseUrl(baseUrl);
    return base === '/' || pathname === base.slice(0, -1) || pathname.startsWith(base);
}
function parseAbsolute(url) {
    try {
        return new URL(url);
    }
    catch {
        return null;
    }
}
/**
 * The in-site path (with query and hash) of a source URL, ignoring its origin, or null when its
 * path is outside the site's base URL (then it is an ordinary off-site link).
 */
export function sourcePath(url, baseUrl) {
    const scheme = schemeOf(url);
    if (scheme !== 'http' && scheme !== 'https')
        return null;
    const parsed = parseAbsolute(scrub(url));
    if (!parsed || !isUnderBase(parsed.pathname, baseUrl))
        return null;
    return parsed.pathname + parsed.search + parsed.hash;
}
/** Resolve `.`/`..` segments of a `/`-separated path (no leading slash games). */
function normalizeSegments(segments) {
    const out = [];
    for (const segment of segments) {
        if (segment === '.' || segment === '')
            continue;
        if (segment === '..')
            out.pop();
        else
            out.push(segment);
    }
    return out;
}
function splitHash(href) {
    const at = href.indexOf('#');
    const beforeHash = at === -1 ? href : href.slice(0, at);
    const hash = at === -1 ? '' : href.slice(at);
    const query = beforeHash.indexOf('?');
    return { path: query === -1 ? beforeHash : beforeHash.slice(0, query), hash };
}
function decodeSafely(path) {
    try {
        return decodeURI(path);
    }
    catch {
        return path;
    }
}
/** Page path of a source URL's page, as a directory to resolve relative links against. */
function pageDirectory(pagePath, filePath) {
    const fileName = (filePath ?? '').split('/').pop() ?? '';
    const isIndexPage = INDEX_NAME.test(fileName.replace(MARKDOWN_EXTENSION, ''));
    if (pagePath.endsWith('/') || isIndexPage)
        return pagePath.endsWith('/') ? pagePath : `${pagePath}/`;
    return pagePath.slice(0, pagePath.lastIndexOf('/') + 1);
}
/**
 * The in-site path a relative Markdown link of a quoted page points at.
 *
 * `href` was written in the Markdown file of `source`. When the site's doc files are known, the
 * link is resolved as a file path against the source's `file_path` and looked up there (this
 * honours ids, slugs and number prefixes exactly); otherwise it is resolved against the
 * source's page URL: `.md`/`.mdx` stripped, `./` and `../` followed, number prefixes of the
 * linked segments stripped, and `index`/`README` made the folder's URL.
 */
export function resolveRelative(href, source, site) {
    const { path, hash } = splitHash(scrub(href));
    const pagePath = source ? sourcePath(source.url, site.baseUrl) : null;
    const pagePathname = pagePath ? splitHash(pagePath).path : normalizeBaseUrl(site.baseUrl);
    if (path === '')
        return pagePathname + hash;
    if (path.startsWith('/')) {
        // Docusaurus puts the base URL in front of a site-absolute Markdown link.
        const target = isUnderBase(path, site.baseUrl) ? path : normalizeBaseUrl(site.baseUrl) + path.slice(1);
        return stripMarkdown(target) + hash;
    }
    if (source?.file_path && site.docFiles && MARKDOWN_EXTENSION.test(path)) {
        const fileDir = source.file_path.split('/').slice(0, -1);
        const target = normalizeSegments([...fileDir, ...decodeSafely(path).split('/')]).join('/');
        const route = site.docFiles[target];
        if (route)
            return route + hash;
    }
    const directory = pageDirectory(pagePathname, source?.file_path);
    const linked = path.split('/');
    const last = linked.length - 1;
    const cleaned = linked.map((segment, index) => {
        if (segment === '.' || segment === '..' || segment === '')
            return segment;
        const name = index === last ? segment.replace(MARKDOWN_EXTENSION, '') : segment;
        return name.replace(NUMBER_PREFIX, '');
    });
    let folder = false;
    if (INDEX_NAME.test(cleaned[last] ?? '') && MARKDOWN_EXTENSION.test(linked[last] ?? '')) {
        cleaned.pop();
        folder = true;
    }
    if (cleaned[cleaned.length - 1] === '' || cleaned[cleaned.length - 1] === '.' || cleaned[cleaned.length - 1] === '..')
        folder = true;
    const segments = normalizeSegments([...directory.split('/'), ...cleaned]);
    const resolved = `/${segments.join('/')}${folder && segments.length ? '/' : ''}`;
    if (!isUnderBase(resolved, site.baseUrl))
        return normalizeBaseUrl(site.baseUrl);
    return resolved + hash;
}
function stripMarkdown(path) {
    return path.replace(MARKDOWN_EXTENSION, '');
}
/** Where a link of an answer goes: an in-site path, an off-site URL, or nowhere. */
export function linkTarget(href, source, site) {
    const url = scrub(href);
    if (url === '')
        return { kind: 'none' };
    const scheme = schemeOf(url);
    if (scheme === null) {
        if (url.startsWith('//'))
            return { kind: 'none' }; // protocol-relative: another host
        const path = resolveRelative(url, source, site);
        return path ? { kind: 'internal', path } : { kind: 'none' };
    }
    if (scheme === 'mailto')
        return { kind: 'external', href: url };
    if (scheme !== 'http' && scheme !== 'https')
        return { kind: 'none' };
    const parsed = parseAbsolute(url);
    if (!parsed)
        return { kind: 'none' };
    if (site.origins.includes(parsed.origin) && isUnderBase(parsed.pathname, site.baseUrl)) {
        return { kind: 'internal', path: parsed.pathname + parsed.search + parsed.hash };
    }
    return { kind: 'external', href: parsed.href };
}
/** The src an image of an answer may load from (a path on this site), or null: not shown. */
export function imageSource(src, source, site) {
    const target = linkTarget(src, source, site);
    if (target.kind !== 'internal')
        return null;
    return target.path;
}
/** The origin of a URL, or null. */
export function originOf(url) {
    if (!url)
        return null;
    const parsed = parseAbsolute(url);
    return parsed && (parsed.protocol === 'http:' || parsed.protocol === 'https:') ? parsed.origin : null;
}
