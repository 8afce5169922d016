-- Dense vectors by (embedding model, sha256 of the embedded text): unchanged text is never
-- embedded twice, across incremental runs, --full rebuilds and evaluation collections.
CREATE TABLE embedding_cache (
    model        text        NOT NULL,
    content_hash text        NOT NULL,
    dimension    integer     NOT NULL CHECK (dimension > 0),
    vector       bytea       NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (model, content_hash)
);
