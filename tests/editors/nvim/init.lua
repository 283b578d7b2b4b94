-- Hermetic test config: the shipped lsp/toolcast.lua, unchanged, found on 'runtimepath'.
vim.opt.runtimepath:append(vim.env.TOOLCAST_NVIM_RTP)
if vim.env.TOOLCAST_CMD then
  -- `toolcast` may not be on PATH in a test venv: point the config at the test's interpreter.
  vim.lsp.config('toolcast', { cmd = vim.json.decode(vim.env.TOOLCAST_CMD) })
end
if vim.env.TOOLCAST_SETTINGS then
  -- A user's settings, exactly as editors/README.md shows them (`settings = { toolcast = {...} }`).
  vim.lsp.config('toolcast', { settings = { toolcast = vim.json.decode(vim.env.TOOLCAST_SETTINGS) } })
end
vim.lsp.enable('toolcast')
