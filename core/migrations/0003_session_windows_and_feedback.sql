-- A session's context window restarts when it expires; readers rate assistant answers.
ALTER TABLE sessions ADD COLUMN window_started_at timestamptz NOT NULL DEFAULT now();

CREATE TABLE feedback (
    id         bigserial   PRIMARY KEY,
    message_id bigint      NOT NULL UNIQUE REFERENCES messages (id) ON DELETE CASCADE,
    score      smallint    NOT NULL CHECK (score IN (-1, 1)),
    comment    text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
