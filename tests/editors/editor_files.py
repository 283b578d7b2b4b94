"""Tool files the editor tests open."""

#: A Gemini finding (`pattern` folded into the description) and an undefined required `ghost` (TC302).
SETTINGS_TOOL = (
    '{\n'
    '  "name": "get_weather",\n'
    '  "description": "Weather",\n'
    '  "parameters": {"type": "object", "properties": {"city": {"type": "string", "pattern": "^[A-Z]"}},\n'
    '                 "required": ["city", "ghost"]}\n'
    '}\n'
)
