"""Tool files the editor tests open."""

#: A `pattern` (folded by Gemini's `parametersJsonSchema`, kept by `parameters`, which is chosen with no target
#: named) and an undefined required `ghost` (TC302).
SETTINGS_TOOL = (
    '{\n'
    '  "name": "get_weather",\n'
    '  "description": "Weather",\n'
    '  "parameters": {"type": "object", "properties": {"city": {"type": "string", "pattern": "^[A-Z]"}},\n'
    '                 "required": ["city", "ghost"]}\n'
    '}\n'
)
