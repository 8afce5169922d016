"""Benchmarks that print numbers: retrieval quality, ingest throughput, search latency."""
