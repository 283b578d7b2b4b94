"""``toolcast proxy``: an MCP server's tools served lowered for a host and model, over the official ``mcp``
SDK on both sides (``bridge``), with what changed written to stderr and a JSON-lines log (``report``)."""
