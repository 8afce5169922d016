-- Ingest runs as readers and authors see them: what asked for a run, its steps, its outcome.
CREATE TABLE ingest_runs (
    id           text        PRIMARY KEY,  -- also the durable workflow's id
    book_id      text        NOT NULL,
    trigger      text        NOT NULL CHECK (trigger IN ('webhook', 'manual', 'cli')),
    status       text        NOT NULL DEFAULT 'queued'
                             CHECK (status IN ('queued', 'running', 'completed', 'failed')),
    branch       text,
    commit_sha   text,
    full_rebuild boolean     NOT NULL DEFAULT false,
    requested_at timestamptz NOT NULL DEFAULT now(),
    started_at   timestamptz,
    ended_at     timestamptz,
    error        text,
    summary      jsonb
);

CREATE INDEX ingest_runs_by_book ON ingest_runs (book_id, requested_at DESC);

-- Every request (a webhook delivery, a manual call) names the run that serves it, so a
-- replayed delivery finds its run, and requests made while a run waits share that run.
CREATE TABLE ingest_requests (
    request_id  text        PRIMARY KEY,
    run_id      text        NOT NULL REFERENCES ingest_runs (id) ON DELETE CASCADE,
    received_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE ingest_steps (
    run_id     text        NOT NULL REFERENCES ingest_runs (id) ON DELETE CASCADE,
    name       text        NOT NULL,
    position   integer     NOT NULL,
    status     text        NOT NULL CHECK (status IN ('running', 'completed', 'failed')),
    attempts   integer     NOT NULL DEFAULT 0,
    started_at timestamptz,
    ended_at   timestamptz,
    error      text,
    PRIMARY KEY (run_id, name)
);
