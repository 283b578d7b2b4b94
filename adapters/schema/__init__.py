"""JSON Schema helpers with no opinion about providers: walking a schema's subschemas, the fast paths that
prove a schema or an instance valid without jsonschema, and nesting depth. ``convert`` (the output judge)
and ``checks`` both use them."""
