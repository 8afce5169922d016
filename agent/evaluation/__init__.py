"""Evaluation on question files: retrieval metrics (hit@k, MRR) and answers through the graph."""
