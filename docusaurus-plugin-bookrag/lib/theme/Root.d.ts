/**
 * The site's Root: the page, then the chat. Docusaurus never unmounts Root, so the chat (and a
 * streaming answer) survives client-side navigation. A site that swizzles its own Root keeps the
 * chat by rendering `@theme-original/Root` inside it.
 */
import { type ReactNode } from 'react';
export default function Root({ children }: {
    children: ReactNode;
}): ReactNode;
