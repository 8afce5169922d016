"""Turning a Docusaurus book into searchable Qdrant points, and searching them."""
