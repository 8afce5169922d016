"""What every part of bookrag stands on: settings, Postgres and its migrations, the Qdrant store,
and the embedding models (so ingest and search can never disagree about them)."""
