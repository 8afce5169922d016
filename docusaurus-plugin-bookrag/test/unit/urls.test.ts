import {describe, expect, it} from 'vitest';
import {imageSource, isUnderBase, linkTarget, normalizeBaseUrl, resolveRelative, schemeOf, sourcePath, type SiteContext, type Source} from '../../src/client/urls';

const site: SiteContext = {baseUrl: '/', origins: ['http://localhost:3000', 'http://127.0.0.1:8000']};
const source: Source = {
  n: 1,
  title: 'Nodes and Topics',
  heading: 'Quality of Service',
  url: 'http://localhost:3000/docs/ros2/nodes-and-topics#qos',
  file_path: '01-ros2/01-nodes-and-topics.md',
};

describe('source URLs', () => {
  it('become in-site paths whatever their origin, when under the base URL', () => {
    expect(sourcePath('http://localhost:3000/docs/a#b', '/')).toBe('/docs/a#b');
    expect(sourcePath('https://books.example.org/handbook/docs/a#b', '/handbook/')).toBe('/handbook/docs/a#b');
  });
  it('stay off-site when their path is outside the base URL', () => {
    expect(sourcePath('http://localhost:3000/other/docs/a', '/handbook/')).toBeNull();
    expect(sourcePath('http://localhost:3000/handbookx/a', '/handbook/')).toBeNull();
  });
  it('are never javascript: or data: links', () => {
    expect(sourcePath('javascript:alert(1)//localhost:3000/docs', '/')).toBeNull();
    expect(sourcePath(' java\tscript:alert(1)', '/')).toBeNull();
    expect(sourcePath('data:text/html,<script>alert(1)</script>', '/')).toBeNull();
  });
  it('base URLs are normalised', () => {
    expect(normalizeBaseUrl('handbook')).toBe('/handbook/');
    expect(normalizeBaseUrl('/')).toBe('/');
    expect(isUnderBase('/handbook', '/handbook/')).toBe(true);
  });
});

describe('relative links of quoted book text', () => {
  it('resolve against the cited page, dropping .md and number prefixes', () => {
    expect(resolveRelative('CLI.md#--showseed', source, site)).toBe('/docs/ros2/CLI#--showseed');
    expect(resolveRelative('./02-services-and-actions.md', source, site)).toBe('/docs/ros2/services-and-actions');
    expect(resolveRelative('../02-simulation/01-urdf.mdx#links', source, site)).toBe('/docs/simulation/urdf#links');
  });
  it('make index and README the folder URL', () => {
    expect(resolveRelative('../intro/index.md', source, site)).toBe('/docs/intro/');
    expect(resolveRelative('./README.md#top', source, site)).toBe('/docs/ros2/#top');
  });
  it('resolve against an index page as a folder', () => {
    const index = {...source, url: 'http://localhost:3000/docs/ros2', file_path: '01-ros2/index.md'};
    expect(resolveRelative('launch.md', index, site)).toBe('/docs/ros2/launch');
  });
  it('use the routes the build recorded for doc files when known (ids, slugs)', () => {
    const docFiles = {'01-ros2/02-services-and-actions.md': '/docs/ros2/services', 'intro.md': '/docs/intro', 'My Page.md': '/docs/my-page'};
    const withFiles = {...site, docFiles};
    expect(resolveRelative('02-services-and-actions.md#goal', source, withFiles)).toBe('/docs/ros2/services#goal');
    expect(resolveRelative('../intro.md', source, withFiles)).toBe('/docs/intro');
    expect(resolveRelative('../My%20Page.md', source, withFiles)).toBe('/docs/my-page');
    expect(resolveRelative('./unknown.md', source, withFiles)).toBe('/docs/ros2/unknown');
  });
  it('keep a hash-only link on the cited page', () => {
    expect(resolveRelative('#qos-profiles', source, site)).toBe('/docs/ros2/nodes-and-topics#qos-profiles');
  });
  it('put the base URL in front of site-absolute links', () => {
    const handbook = {...site, baseUrl: '/handbook/'};
    const cited = {...source, url: 'http://localhost:3000/handbook/docs/ros2/nodes-and-topics'};
    expect(resolveRelative('/docs/intro.md', cited, handbook)).toBe('/handbook/docs/intro');
    expect(resolveRelative('../../../../../etc', cited, handbook)).toBe('/handbook/');
  });
});

describe('the link policy', () => {
  it('refuses script, data and vbscript links, however written', () => {
    for (const href of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', ' javascript:alert(1)', 'java\nscript:alert(1)', 'data:text/html,x', 'vbscript:msgbox(1)', '//evil.example/x']) {
      expect(linkTarget(href, source, site).kind).toBe('none');
    }
    expect(schemeOf('\u0001javascript:x')).toBe('javascript');
  });
  it('keeps links on the site in-site, from any of its origins', () => {
    expect(linkTarget('http://127.0.0.1:8000/docs/a#b', source, site)).toEqual({kind: 'internal', path: '/docs/a#b'});
    expect(linkTarget('http://localhost:3000/docs/a', source, site)).toEqual({kind: 'internal', path: '/docs/a'});
  });
  it('sends other http(s) and mailto links off-site', () => {
    expect(linkTarget('https://docs.ros.org/en/jazzy/', source, site)).toEqual({kind: 'external', href: 'https://docs.ros.org/en/jazzy/'});
    expect(linkTarget('mailto:a@b.c', source, site).kind).toBe('external');
  });
  it('loads images only from the site', () => {
    expect(imageSource('https://evil.example/pixel.gif?q=SECRET', source, site)).toBeNull();
    expect(imageSource('data:image/png;base64,AAAA', source, site)).toBeNull();
    expect(imageSource('http://localhost:3000/img/robot.png', source, site)).toBe('/img/robot.png');
    expect(imageSource('/img/robot.png', source, site)).toBe('/img/robot.png');
  });
});
