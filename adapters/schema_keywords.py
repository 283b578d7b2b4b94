"""JSON Schema's own vocabulary, without provider opinions: the keywords whose value holds subschemas, by
the form of that value, and the type names. Every walk of a schema (the walker and the checks' scan, the
budgeted walk, the fast meta-schema check, the output judge) and the shape detection read these families,
so a keyword added here is descended into everywhere (``tests/test_schema_keywords.py``)."""

from __future__ import annotations

#: Keywords whose value is one subschema (2020-12's applicators; `items` is a list in draft-07, below).
ONE_SCHEMA = ("items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
              "unevaluatedItems", "unevaluatedProperties")
#: Keywords whose value is an object of subschemas.
SCHEMA_MAP = ("properties", "patternProperties", "dependentSchemas", "$defs", "definitions")
#: Keywords whose value is a list of subschemas.
SCHEMA_LIST = ("anyOf", "oneOf", "allOf", "prefixItems")
#: Draft-07 (and older) forms 2020-12 replaced: `additionalItems` (one subschema), `items` as a list (a
#: tuple, now `prefixItems`), `dependencies` (an object of subschemas or of name lists).
DRAFT7_ONE_SCHEMA = ("additionalItems",)
DRAFT7_SCHEMA_LIST = ("items",)
DRAFT7_SCHEMA_MAP = ("dependencies",)

#: The type names of JSON Schema, in the order messages list them.
JSON_TYPE_NAMES = ("string", "number", "integer", "boolean", "object", "array", "null")
JSON_TYPES = frozenset(JSON_TYPE_NAMES)
