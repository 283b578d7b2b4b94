-- Hermetic test config: the shipped lsp/toolcast.lua, unchanged, found on 'runtimepath'. Its `cmd` is
-- `toolcast serve`: the test puts the test environment's `toolcast` first on PATH.
vim.opt.runtimepath:append(vim.env.TOOLCAST_NVIM_RTP)
vim.lsp.enable('toolcast')
