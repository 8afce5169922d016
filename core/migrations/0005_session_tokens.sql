-- A session belongs to whoever holds its token: only the token's sha256 is stored. Sessions
-- without one (the command line's) can never be reached over HTTP.
ALTER TABLE sessions ADD COLUMN token_hash bytea;
