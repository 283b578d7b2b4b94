;;; toolcast-eglot.el --- toolcast's language server for tool files, through Eglot  -*- lexical-binding: t; -*-

;; Package-Requires: ((emacs "28.1") (eglot "1.9"))

;;; Commentary:

;; Opens the files toolcast checks in `toolcast-json-mode', runs `toolcast serve' for that mode through
;; Eglot, and starts Eglot in every such buffer (`eglot-ensure').
;;
;; Why a mode of its own: Eglot picks a server by major mode, and there is no JSON mode to key on that
;; would not take other files too.  Emacs 28 opens .json files in `js-mode' (where Eglot starts
;; typescript-language-server) and .jsonc files in `fundamental-mode'; Emacs 29 has `js-json-mode' and,
;; with the tree-sitter JSON grammar, `json-ts-mode', used for every JSON file.  `toolcast-json-mode'
;; derives from the best of these the Emacs has, so tool files keep JSON editing, and other JSON files
;; keep their own mode and server.
;;
;; Files toolcast checks by default (the `globs' setting, see adapters/checks/files.py): *.tool.json,
;; *.tools.json, tools/*.json (any depth under a folder named tools), the same with .jsonc, and
;; *.request.json.  A project with other `globs' adds its names to `auto-mode-alist', for example:
;;   (add-to-list 'auto-mode-alist '("/llm/[^/]+\\.json\\'" . toolcast-json-mode))
;;
;; Settings (the `toolcast' section: targets, select, ignore, severity, ...) come through
;; `eglot-workspace-configuration', best set in the project's .dir-locals.el:
;;   ((nil . ((eglot-workspace-configuration . (:toolcast (:targets ["openai" "anthropic"]))))))
;; After changing them in a running session: M-x eglot-signal-didChangeConfiguration.

;;; Code:

(require 'eglot)

(defgroup toolcast nil
  "toolcast's language server for LLM tool files."
  :group 'tools
  :prefix "toolcast-")

(defcustom toolcast-eglot-command '("toolcast" "serve")
  "The command that starts toolcast's language server (stdio).
Give the full path when `toolcast' is not on `exec-path', for example
\\='(\"~/.local/toolcast/bin/toolcast\" \"serve\")."
  :type '(repeat string))

(defconst toolcast-file-name-regexp
  (concat "\\(?:\\.tools?\\.jsonc?\\|/tools/.+\\.jsonc?\\|\\.request\\.json\\)\\'")
  "File names toolcast checks by default: its `globs' setting as a regexp.")

(defmacro toolcast--define-mode (parent)
  "Define `toolcast-json-mode' derived from PARENT."
  `(define-derived-mode toolcast-json-mode ,parent "toolcast"
     "Major mode for LLM tool files checked by toolcast (JSON or JSONC).
Derived from the JSON mode this Emacs has; Eglot runs `toolcast serve' in it."
     ;; JSONC: line and block comments (js-mode's syntax table already has them).
     (setq-local comment-start "// ")
     (setq-local comment-end "")))

(cond ((and (fboundp 'treesit-ready-p) (fboundp 'json-ts-mode) (treesit-ready-p 'json t))
       (toolcast--define-mode json-ts-mode))          ; Emacs 29+ with the tree-sitter JSON grammar
      ((fboundp 'js-json-mode) (toolcast--define-mode js-json-mode)) ; Emacs 29+
      (t (toolcast--define-mode js-mode)))                           ; Emacs 28

(defun toolcast--contact (&optional _interactive)
  "The server command, read when Eglot starts.
So `toolcast-eglot-command' may be set after this file is loaded."
  toolcast-eglot-command)

;; languageId "json": the server reads comments by the file name (.jsonc), not by the language id.
(add-to-list 'eglot-server-programs '((toolcast-json-mode :language-id "json") . toolcast--contact))
(add-to-list 'auto-mode-alist (cons toolcast-file-name-regexp 'toolcast-json-mode))
(add-hook 'toolcast-json-mode-hook #'eglot-ensure)

(provide 'toolcast-eglot)
;;; toolcast-eglot.el ends here
