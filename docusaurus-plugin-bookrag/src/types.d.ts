// The one theme component of Docusaurus's classic theme the panel uses (typed here so the
// plugin does not depend on the classic theme's type package).
declare module '@theme/CodeBlock' {
  import type {ReactNode} from 'react';
  export interface Props {
    readonly children: string;
    readonly className?: string;
    readonly language?: string;
    readonly title?: ReactNode;
    readonly showLineNumbers?: boolean | number;
  }
  export default function CodeBlock(props: Props): ReactNode;
}

// Written by the plugin at build time (see `allContentLoaded` in ../index.ts).
declare module '@generated/docusaurus-plugin-bookrag/default/doc-files.json' {
  const docFiles: Record<string, string>;
  export default docFiles;
}
