// The sample book as a Docusaurus site. Where it is published comes from the same environment
// variables the bookrag server reads (SITE_URL, SITE_BASE_URL, DOCS_ROUTE_BASE), with the same
// defaults, so the links in answers open pages of this site.
// DOCUSAURUS_FUTURE_V4=true builds with `future: {v4: true}` (CI builds both ways).

const siteUrl = process.env.SITE_URL || 'http://localhost:3000';
const routeBasePath = process.env.DOCS_ROUTE_BASE || 'docs';

/** Docusaurus wants `baseUrl` to start and end with a slash. */
function slashed(path) {
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  return trimmed ? `/${trimmed}/` : '/';
}

const docsAtRoot = routeBasePath.replace(/^\/+|\/+$/g, '') === '';

/** @type {import('@docusaurus/types').Config} */
module.exports = {
  title: 'Physical AI & Humanoid Robotics Handbook',
  tagline: 'The sample book of bookrag',
  url: siteUrl,
  baseUrl: slashed(process.env.SITE_BASE_URL || '/'),
  onBrokenLinks: 'throw',
  onBrokenAnchors: 'throw',
  i18n: {defaultLocale: 'en', locales: ['en']},
  future: {v4: process.env.DOCUSAURUS_FUTURE_V4 === 'true'},
  customFields: {routeBasePath},
  presets: [
    [
      'classic',
      /** @type {import('@docusaurus/preset-classic').Options} */
      ({
        docs: {routeBasePath, sidebarPath: require.resolve('./sidebars.js')},
        blog: false,
        // With the docs at the site root, a home page would take the docs' route.
        pages: docsAtRoot ? false : {},
      }),
    ],
  ],
  // The reader's chat with the book (../docusaurus-plugin-bookrag): on every page. The server's
  // address is BOOKRAG_API_URL at build time (default: `make run`'s).
  plugins: [
    [
      'docusaurus-plugin-bookrag',
      {
        apiUrl: process.env.BOOKRAG_API_URL || 'http://127.0.0.1:8000',
        suggestedQuestions: [
          'Which QoS setting makes DDS retransmit lost messages?',
          'How do I describe a robot with URDF?',
          'What is a vision-language-action model?',
        ],
      },
    ],
  ],
  themeConfig: {
    navbar: {
      title: 'Physical AI Handbook',
      items: [{type: 'docSidebar', sidebarId: 'book', position: 'left', label: 'Book'}],
    },
  },
};
