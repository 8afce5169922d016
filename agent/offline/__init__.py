"""The graph's strategies that need no LLM: rule-based condensing, the heuristic reranker, the
grader, and extractive answers, over one lexical analysis (`text`)."""
