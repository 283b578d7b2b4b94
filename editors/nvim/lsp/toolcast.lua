---@brief
---
--- toolcast: checks LLM tool definitions (JSON Schema) while you type and exports them to every
--- provider's format (OpenAI, Anthropic, Gemini, Mistral, MCP, Bedrock).
---
--- Install the server from a checkout of the toolcast repository (`python3 -m pip install .` in a
--- virtual environment, its bin/ on PATH: see editors/README.md), then add this folder's parent
--- (`editors/nvim`) to 'runtimepath' and call `vim.lsp.enable('toolcast')`.
---
--- Settings (`settings.toolcast`): `targets`, `select`, `ignore`, `severity`, `globs`, `debounce_ms`.

---@type vim.lsp.Config
return {
  cmd = { 'toolcast', 'serve' },
  filetypes = { 'json', 'jsonc' },
  root_markers = { 'toolcast.toml', 'pyproject.toml', '.git' },
  settings = {
    toolcast = {},
  },
}
