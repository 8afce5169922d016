"""Text from a request that Postgres can store and a model can read: no NUL, no unpaired
surrogates. As a pydantic validator (`Storable`), so a bad value is a 422 naming its field."""

from pydantic import AfterValidator


def storable(text: str) -> str:
    """`text` unchanged, or a `ValueError` saying what is wrong with it."""
    if "\x00" in text:
        raise ValueError("must not contain NUL (\\u0000) characters")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("contains an unpaired surrogate; send valid UTF-8 text") from None
    return text


Storable = AfterValidator(storable)
