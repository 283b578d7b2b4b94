-- Opens a tool file, waits for toolcast's diagnostics, applies "Export to Anthropic", reports JSON.
local file = _G.arg[1]
vim.cmd.edit(file)
local buf = vim.api.nvim_get_current_buf()
local out = { filetype = vim.bo[buf].filetype }
local ok = vim.wait(20000, function() return #vim.lsp.get_clients({ bufnr = buf, name = 'toolcast' }) > 0 end, 50)
assert(ok, 'toolcast did not attach')
local client = vim.lsp.get_clients({ bufnr = buf, name = 'toolcast' })[1]
out.encoding = client.offset_encoding
out.cmd = client.config.cmd  -- the command Neovim started: the shipped one
assert(vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end, 50), 'no diagnostics')
out.diagnostics = {}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  table.insert(out.diagnostics, { code = d.code, lnum = d.lnum, col = d.col, source = d.source })
end
local res = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', {
  textDocument = vim.lsp.util.make_text_document_params(buf),
  range = { start = { line = 1, character = 3 }, ['end'] = { line = 1, character = 3 } },
  context = { diagnostics = {}, triggerKind = 1 },
}, 10000)
local actions = res[client.id].result or {}
out.titles = {}
local chosen
for _, a in ipairs(actions) do
  table.insert(out.titles, a.title)
  if a.title == 'Export to Anthropic' then chosen = a end
end
assert(chosen, 'no Export to Anthropic action')
if not chosen.edit and chosen.data then
  -- Listed without its edit (Neovim declares resolveSupport for `edit`): resolve it, as
  -- vim.lsp.buf.code_action does for the action the user picks.
  local resolved = client:request_sync('codeAction/resolve', chosen, 10000, buf)
  assert(resolved and resolved.result, 'codeAction/resolve failed: ' .. vim.inspect(resolved))
  chosen = resolved.result
  out.resolved = true
end
if chosen.edit then
  vim.lsp.util.apply_workspace_edit(chosen.edit, client.offset_encoding)
  vim.cmd('silent! wall')
  out.applied = 'edit'
  if chosen.command then
    -- Then its command, as vim.lsp.buf.code_action does: the server asks Neovim to show the new file.
    client:exec_cmd(chosen.command, { bufnr = buf })
    vim.wait(10000, function() return vim.api.nvim_buf_get_name(0) ~= vim.api.nvim_buf_get_name(buf) end, 50)
    out.shown = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(0), ':t')
  end
else
  local cmd = chosen.command
  local done = false
  client:exec_cmd(cmd, { bufnr = buf }, function() done = true end)
  vim.wait(10000, function() return done end, 50)
  out.applied = 'command'
end
io.stdout:write(vim.json.encode(out) .. '\n')
vim.cmd('qall!')
