"""Where users already work: ``langchain`` (retriever, chain step), ``llamaindex`` (retriever, query engine)
and ``mcp`` (an MCP server, ``jogak mcp``). Each is an optional extra (``pip install 'jogak[langchain]'``, …)
and imports its library only when imported itself; ``provenance`` and ``clauses`` are what they share."""
