import {describe, expect, it} from 'vitest';
import {MAX_PAGE_TITLE, pageTitle} from '../../src/client/page';

function root(headings: Record<string, string | null>) {
  return {querySelector: (selector: string) => (selector in headings && headings[selector] !== null ? ({textContent: headings[selector]} as Element) : null)};
}

describe('the page the reader is on', () => {
  it("is named by its article's first heading, whitespace tidied", () => {
    expect(pageTitle(root({'article h1': '  Voice to Action:\n  Speech ', 'main h1': 'Other'}))).toBe('Voice to Action: Speech');
  });
  it('falls back to the main heading, and is absent when the page has none', () => {
    expect(pageTitle(root({'main h1': 'Search'}))).toBe('Search');
    expect(pageTitle(root({'article h1': '   '}))).toBeUndefined();
    expect(pageTitle(root({}))).toBeUndefined();
  });
  it('is cut to the length the server accepts', () => {
    expect(pageTitle(root({'article h1': 'x'.repeat(500)}))).toHaveLength(MAX_PAGE_TITLE);
  });
});
