"""The conversational agent: the LangGraph graph, its offline and LLM steps, sessions, CLI."""
