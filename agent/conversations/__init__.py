"""Conversations in Postgres: sessions and their window, one turn end to end, and feedback."""
