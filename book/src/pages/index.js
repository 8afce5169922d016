import React from 'react';
import Link from '@docusaurus/Link';
import Layout from '@theme/Layout';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';

// The site's home: one link into the book (the docs live under `routeBasePath`).
export default function Home() {
  const {siteConfig} = useDocusaurusContext();
  const docs = String(siteConfig.customFields.routeBasePath).replace(/^\/+|\/+$/g, '');
  return (
    <Layout title={siteConfig.title} description={siteConfig.tagline}>
      <main className="container margin-vert--xl">
        <h1>{siteConfig.title}</h1>
        <p>{siteConfig.tagline}</p>
        <Link className="button button--primary button--lg" to={`/${docs}/intro`}>
          Start reading
        </Link>
      </main>
    </Layout>
  );
}
