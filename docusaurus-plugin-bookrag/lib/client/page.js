/** The page the reader is on, as the chat tells the server: a question about "this lesson"
 * is about it. */
/** The longest page title the server accepts. */
export const MAX_PAGE_TITLE = 300;
/** The title of the page: its article's first heading (what the reader sees), if any. */
export function pageTitle(root) {
    const heading = root.querySelector('article h1') ?? root.querySelector('main h1');
    const text = (heading?.textContent ?? '').replace(/\s+/g, ' ').trim();
    return text ? text.slice(0, MAX_PAGE_TITLE) : undefined;
}
