"""The HTTP service: FastAPI REST routes and the LangServe chat routes over the agent."""
