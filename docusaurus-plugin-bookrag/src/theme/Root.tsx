/**
 * The site's Root: the page, then the chat. Docusaurus never unmounts Root, so the chat (and a
 * streaming answer) survives client-side navigation. A site that swizzles its own Root keeps the
 * chat by rendering `@theme-original/Root` inside it.
 */
import React, {type ReactNode} from 'react';
import Launcher from './Bookrag/Launcher';

export default function Root({children}: {children: ReactNode}): ReactNode {
  return (
    <>
      {children}
      <Launcher />
    </>
  );
}
