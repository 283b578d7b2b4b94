"""The JSON Schema keyword families the walker and the scan both descend by, and the type names."""

from __future__ import annotations

#: Keywords that only annotate: removing them never changes which instances are valid.
ANNOTATIONS = frozenset({
    "title", "description", "default", "examples", "example", "deprecated", "readOnly", "writeOnly",
    "$comment", "$schema", "$id", "$anchor", "propertyOrdering", "markdownDescription", "nullable",
})
#: Keywords whose value holds one sub-schema / a map of sub-schemas / a list of sub-schemas.
ONE_SCHEMA = ("items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
              "unevaluatedItems", "unevaluatedProperties")
SCHEMA_MAP = ("properties", "patternProperties", "dependentSchemas", "$defs", "definitions")
SCHEMA_LIST = ("anyOf", "oneOf", "allOf", "prefixItems")
#: Every keyword the walker knows: others are unknown (dropped by modes that drop unknown keywords).
KNOWN = frozenset(ANNOTATIONS | set(ONE_SCHEMA) | set(SCHEMA_MAP) | set(SCHEMA_LIST) | {
    "type", "enum", "const", "required", "format", "pattern", "minLength", "maxLength", "minimum", "maximum",
    "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "uniqueItems",
    "minContains", "maxContains", "minProperties", "maxProperties", "dependentRequired", "$ref",
    "$dynamicRef", "$dynamicAnchor", "$vocabulary",
})
#: The type names of JSON Schema.
JSON_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})
