import { defaultSchema } from 'rehype-sanitize';
import { visitParents, SKIP } from 'unist-util-visit-parents';
import { gfmTable } from 'micromark-extension-gfm-table';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTaskListItem } from 'micromark-extension-gfm-task-list-item';
import { gfmTaskListItemFromMarkdown } from 'mdast-util-gfm-task-list-item';
import { imageSource, linkTarget } from './urls';
/** GitHub's sanitize schema, with links and images limited to web schemes. */
export const SANITIZE_SCHEMA = {
    ...defaultSchema,
    tagNames: (defaultSchema.tagNames ?? []).filter((name) => !['video', 'audio', 'source', 'picture', 'iframe'].includes(name)),
    protocols: { href: ['http', 'https', 'mailto'], src: ['http', 'https'], cite: ['http', 'https'], longDesc: ['http', 'https'] },
};
/** remark plugin: the GFM constructs an answer uses, without linkifying bare URLs. */
export function remarkBookGfm() {
    const data = this.data();
    (data.micromarkExtensions ?? (data.micromarkExtensions = [])).push(gfmTable(), gfmStrikethrough(), gfmTaskListItem());
    (data.fromMarkdownExtensions ?? (data.fromMarkdownExtensions = [])).push(gfmTableFromMarkdown(), gfmStrikethroughFromMarkdown(), gfmTaskListItemFromMarkdown());
}
export const CITATION = /\[(\d{1,3})\]/g;
const NO_CITATIONS_INSIDE = new Set(['code', 'pre', 'a', 'kbd', 'samp']);
const BLOCKS = new Set(['p', 'li', 'td', 'th', 'blockquote', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'dd', 'dt', 'pre']);
/** Split a text into plain pieces and citation numbers, in order. */
export function splitCitations(text) {
    const pieces = [];
    let last = 0;
    for (const match of text.matchAll(CITATION)) {
        const at = match.index ?? 0;
        if (at > last)
            pieces.push(text.slice(last, at));
        pieces.push(Number(match[1]));
        last = at + match[0].length;
    }
    if (last < text.length)
        pieces.push(text.slice(last));
    return pieces;
}
function citationElement(n) {
    return {
        type: 'element',
        tagName: 'sup',
        properties: { className: ['bookrag-cite'], dataCite: String(n) },
        children: [{ type: 'text', value: `[${n}]` }],
    };
}
/** rehype plugin: `[n]` in text (not in code or links) becomes `<sup data-cite="n">`. */
export function rehypeCitations() {
    return (tree) => {
        visitParents(tree, 'text', (node, ancestors) => {
            if (ancestors.some((a) => a.type === 'element' && NO_CITATIONS_INSIDE.has(a.tagName)))
                return;
            const pieces = splitCitations(node.value);
            if (pieces.length === 1 && typeof pieces[0] === 'string')
                return;
            const parent = ancestors[ancestors.length - 1];
            const replacement = pieces.map((piece) => typeof piece === 'number' ? citationElement(piece) : { type: 'text', value: piece });
            const at = parent.children.indexOf(node);
            parent.children.splice(at, 1, ...replacement);
            return [SKIP, at + replacement.length];
        });
    };
}
/** The source a relative link was written in: the citation of its sentence or block. */
function citedSourceFor(entries, index, sources) {
    const { block } = entries[index];
    const byNumber = (n) => sources.find((source) => source.n === n);
    const search = (from, step, sameBlock) => {
        for (let i = from; i >= 0 && i < entries.length; i += step) {
            const entry = entries[i];
            if (sameBlock && entry.block !== block)
                continue;
            if (entry.kind === 'cite' && byNumber(entry.n))
                return byNumber(entry.n);
        }
        return undefined;
    };
    return search(index + 1, 1, true) ?? search(index - 1, -1, true) ?? search(index - 1, -1, false) ?? search(index + 1, 1, false) ?? sources[0];
}
function textOf(node) {
    const alt = node.properties?.alt;
    return typeof alt === 'string' ? alt : '';
}
/**
 * rehype plugin (after the sanitizer and `rehypeCitations`): links go in-site (marked
 * `data-internal`), off-site (new tab, no opener, no referrer) or become plain text; images
 * stay only when served by the site, otherwise their alt text stays.
 */
export function rehypeLinkPolicy(options) {
    return (tree) => {
        const entries = [];
        visitParents(tree, 'element', (node, ancestors) => {
            const blockAncestor = [...ancestors].reverse().find((a) => a.type === 'element' && BLOCKS.has(a.tagName)) ?? tree;
            const parent = ancestors[ancestors.length - 1];
            if (node.tagName === 'sup' && node.properties?.dataCite !== undefined) {
                entries.push({ kind: 'cite', n: Number(node.properties.dataCite), block: blockAncestor });
            }
            else if (node.tagName === 'a' || node.tagName === 'img') {
                entries.push({ kind: 'link', node, parent, block: blockAncestor });
            }
        });
        entries.forEach((entry, index) => {
            if (entry.kind !== 'link' || !entry.node || !entry.parent)
                return;
            const node = entry.node;
            const source = citedSourceFor(entries, index, options.sources);
            const replaceWith = (children) => {
                const siblings = entry.parent.children;
                const at = siblings.indexOf(node);
                if (at !== -1)
                    siblings.splice(at, 1, ...children);
            };
            if (node.tagName === 'img') {
                const src = typeof node.properties?.src === 'string' ? node.properties.src : '';
                const allowed = imageSource(src, source, options.site);
                if (allowed === null) {
                    const alt = textOf(node);
                    replaceWith(alt ? [{ type: 'text', value: alt }] : []);
                }
                else {
                    node.properties = { src: allowed, alt: textOf(node), loading: 'lazy', referrerPolicy: 'no-referrer' };
                }
                return;
            }
            const href = typeof node.properties?.href === 'string' ? node.properties.href : '';
            const target = linkTarget(href, source, options.site);
            if (target.kind === 'none')
                replaceWith(node.children);
            else if (target.kind === 'internal')
                node.properties = { href: target.path, dataInternal: 'true' };
            else
                node.properties = { href: target.href, target: '_blank', rel: ['noopener', 'noreferrer'] };
        });
    };
}
