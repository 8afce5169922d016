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
/** What the answer was built from, as the server sends it. */
export interface Source {
    n: number;
    title: string;
    heading?: string | null;
    url: string;
    file_path?: string | null;
    chunk_id?: string | null;
    score?: number | null;
}
/** What the link policy knows about the site the reader is on. */
export interface SiteContext {
    /** Docusaurus `baseUrl`, starting and ending with `/`. */
    baseUrl: string;
    /** Origins that are this site: the configured `url`, the page's own, the sources'. */
    origins: string[];
    /** Doc Markdown file (relative to the docs folder) → route, recorded at build time. */
    docFiles?: Record<string, string>;
}
export type LinkTarget = {
    kind: 'internal';
    path: string;
} | {
    kind: 'external';
    href: string;
} | {
    kind: 'none';
};
/** The scheme of `url` in lower case, or null for a relative URL. */
export declare function schemeOf(url: string): string | null;
/** `/a/b/` for `a/b`, `/a/b`, `/a/b/`; `/` for empty. */
export declare function normalizeBaseUrl(baseUrl: string): string;
/** Whether `pathname` is the base URL itself or below it. */
export declare function isUnderBase(pathname: string, baseUrl: string): boolean;
/**
 * The in-site path (with query and hash) of a source URL, ignoring its origin, or null when its
 * path is outside the site's base URL (then it is an ordinary off-site link).
 */
export declare function sourcePath(url: string, baseUrl: string): string | null;
/**
 * The in-site path a relative Markdown link of a quoted page points at.
 *
 * `href` was written in the Markdown file of `source`. When the site's doc files are known, the
 * link is resolved as a file path against the source's `file_path` and looked up there (this
 * honours ids, slugs and number prefixes exactly); otherwise it is resolved against the
 * source's page URL: `.md`/`.mdx` stripped, `./` and `../` followed, number prefixes of the
 * linked segments stripped, and `index`/`README` made the folder's URL.
 */
export declare function resolveRelative(href: string, source: Source | undefined, site: SiteContext): string | null;
/** Where a link of an answer goes: an in-site path, an off-site URL, or nowhere. */
export declare function linkTarget(href: string, source: Source | undefined, site: SiteContext): LinkTarget;
/** The src an image of an answer may load from (a path on this site), or null: not shown. */
export declare function imageSource(src: string, source: Source | undefined, site: SiteContext): string | null;
/** The origin of a URL, or null. */
export declare function originOf(url: string | undefined | null): string | null;
