/**
 * The Markdown pipeline of an answer: GFM tables, strikethrough and task lists but no
 * autolinking of bare URLs, a sanitizer (rehype-sanitize, GitHub's schema narrowed to http(s)
 * and mailto links), then the book's own rules, applied to the sanitized tree:
 * `[n]` becomes a citation, links go through the link policy (`urls.ts`), and images load only
 * from the site. Raw HTML never becomes markup: react-markdown shows it as text.
 */
import type { Root } from 'hast';
import type { Options as SanitizeSchema } from 'rehype-sanitize';
import { type SiteContext, type Source } from './urls';
/** GitHub's sanitize schema, with links and images limited to web schemes. */
export declare const SANITIZE_SCHEMA: SanitizeSchema;
/** remark plugin: the GFM constructs an answer uses, without linkifying bare URLs. */
export declare function remarkBookGfm(this: {
    data(): unknown;
}): void;
export declare const CITATION: RegExp;
/** Split a text into plain pieces and citation numbers, in order. */
export declare function splitCitations(text: string): Array<string | number>;
/** rehype plugin: `[n]` in text (not in code or links) becomes `<sup data-cite="n">`. */
export declare function rehypeCitations(): (tree: Root) => void;
export interface LinkPolicyOptions {
    site: SiteContext;
    sources: Source[];
}
/**
 * rehype plugin (after the sanitizer and `rehypeCitations`): links go in-site (marked
 * `data-internal`), off-site (new tab, no opener, no referrer) or become plain text; images
 * stay only when served by the site, otherwise their alt text stays.
 */
export declare function rehypeLinkPolicy(options: LinkPolicyOptions): (tree: Root) => void;
