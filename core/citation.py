"""The citation URL of a chunk: its page's URL and its heading's anchor, encoded.

Search hits, answer sources, the reading API and the author's site check all build the URL
here, so a citation can never be written two ways. Page URLs and anchors come from the book
(slugs, custom heading ids), so both are percent-encoded: a quote or a space in them can
never break out of a link. Given the site's current address, the URL points there, whatever
address the page was ingested under (so changing `SITE_URL` needs no re-ingest).
"""

from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

from core.safety import encode_url


def citation_url(payload: dict[str, Any], site_url: str | None = None) -> str:
    """The chunk's page URL with its section's anchor (the fragment left off when it has none),
    on `site_url`'s scheme and host when given."""
    page = encode_url(on_site(str(payload["page_url"]), site_url))
    anchor = payload.get("anchor")
    return f"{page}#{quote(str(anchor), safe='-._~')}" if anchor else page


def on_site(page_url: str, site_url: str | None) -> str:
    """`page_url` with the scheme and host of `site_url` (unchanged without one)."""
    if not site_url:
        return page_url
    site, page = urlsplit(site_url), urlsplit(page_url)
    return urlunsplit((site.scheme, site.netloc, page.path, page.query, page.fragment))
