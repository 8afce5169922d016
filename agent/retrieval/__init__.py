"""The read side of a book's index: hybrid search, reading around a chunk, numbered sources, and
the book's vocabulary."""
