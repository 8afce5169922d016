/** The page the reader is on, as the chat tells the server: a question about "this lesson"
 * is about it. */
/** The longest page title the server accepts. */
export declare const MAX_PAGE_TITLE = 300;
/** The title of the page: its article's first heading (what the reader sees), if any. */
export declare function pageTitle(root: Pick<ParentNode, 'querySelector'>): string | undefined;
