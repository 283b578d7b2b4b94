;;; drive.el --- a real Emacs drives toolcast through eglot; prints what it saw as one JSON line  -*- lexical-binding: t -*-
;; emacs --batch -Q -l drive.el FILE, with TOOLCAST_ELPA (the folder holding eglot and its packages) and
;; TOOLCAST_EXE (the toolcast console script) in the environment.
(dolist (dir (directory-files (getenv "TOOLCAST_ELPA") t "^[a-z]"))
  (add-to-list 'load-path dir))
(require 'eglot)
(require 'json)
(require 'flymake)

(setq eglot-server-programs `((js-mode . (,(getenv "TOOLCAST_EXE") "serve"))))
(find-file (car command-line-args-left))
(js-mode)
(eglot-ensure)
(run-hooks 'post-command-hook)  ; eglot-ensure connects after the command that turned the mode on

(defun drive-wait (what seconds)
  "Read the server's output until WHAT returns non-nil, at most SECONDS."
  (let ((end (+ (float-time) seconds)) got)
    (while (and (not (setq got (funcall what))) (< (float-time) end))
      (accept-process-output nil 0.1))
    got))

(unless (drive-wait #'eglot-managed-p 60) (error "eglot did not connect"))
(unless (drive-wait (lambda () (flymake-diagnostics)) 60) (error "no diagnostics"))

(let* ((actions (eglot-code-actions (point-min) (point-max) "quickfix"))
       (hover (progn (goto-char (point-min))
                     (search-forward "\"format\": \"uri\"")
                     (goto-char (+ (match-beginning 0) 2))  ; on the key `format` of `"format": "uri"`
                     (jsonrpc-request (eglot--current-server-or-lose) :textDocument/hover
                                      (eglot--TextDocumentPositionParams))))
       (contents (plist-get hover :contents)))
  (princ (json-encode
          (list :diagnostics (vconcat (mapcar #'flymake-diagnostic-text (flymake-diagnostics)))
                :actions (vconcat (mapcar (lambda (a)
                                            (list :title (plist-get a :title)
                                                  :codes (vconcat (mapcar (lambda (d) (plist-get d :code))
                                                                          (plist-get a :diagnostics)))))
                                          actions))
                :hoverKind (plist-get contents :kind)
                :hover (plist-get contents :value))))
  (terpri))
(kill-emacs 0)
