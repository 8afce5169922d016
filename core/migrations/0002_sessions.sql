-- Conversations: a session per reader conversation, its messages newest last.
CREATE TABLE sessions (
    id             uuid        PRIMARY KEY,
    book_id        text        NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    last_active_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE messages (
    id         bigserial   PRIMARY KEY,
    session_id uuid        NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    role       text        NOT NULL CHECK (role IN ('user', 'assistant')),
    content    text        NOT NULL,
    sources    jsonb       NOT NULL DEFAULT '[]'::jsonb,
    status     text        NOT NULL DEFAULT 'complete' CHECK (status IN ('complete', 'failed')),
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX messages_by_session ON messages (session_id, id);
