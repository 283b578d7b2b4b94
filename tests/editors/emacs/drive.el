;;; drive.el --- drives a real Emacs + Eglot through editors/emacs/toolcast-eglot.el  -*- lexical-binding: t; -*-

;; Run: emacs --batch -q -l drive.el (-q, not -Q: Debian's site start-up makes its elpa-* packages
;; known).  Environment: TOOLCAST_EL the set-up file, TOOLCAST_FILE the tool file, TOOLCAST_NAMES file
;; names whose major mode is reported, TOOLCAST_STEPS=attach to stop after the first diagnostics.
;; Prints one JSON object on stdout.
;; What a user does by hand, done with the same functions: open the file (the mode hook runs
;; eglot-ensure, which connects after the next command: the command loop's post-command-hook is run
;; here), read Flymake's diagnostics, pick code actions, change the settings.

(require 'package)
(package-activate-all)                  ; Debian's elpa-eglot is a package.el package (Emacs 28)
(require 'json)
(require 'flymake)
(setq eglot-sync-connect t
      eglot-confirm-server-initiated-edits nil
      enable-local-variables :safe)
(load (getenv "TOOLCAST_EL") nil t)

(defvar drive-out nil "The report, an alist encoded as JSON at the end.")
(defvar drive-messages nil "Every `message' Emacs showed, as a user sees them in the echo area.")
(advice-add 'message :after
            (lambda (fmt &rest args)
              (when fmt (push (apply #'format-message fmt args) drive-messages))))

(defun drive-put (key value) (push (cons key value) drive-out))

(defun drive-wait (pred &optional seconds)
  "Let Emacs read the server and run its timers until PRED holds (nil after SECONDS)."
  (let ((deadline (+ (float-time) (or seconds 30))) ok)
    (while (and (not (setq ok (funcall pred))) (< (float-time) deadline))
      (accept-process-output nil 0.05)
      (when (bound-and-true-p flymake-mode) (flymake-start)))
    ok))

(defun drive-diagnostics ()
  "Flymake's diagnostics that came from Eglot: (CODE LINE COLUMN) each, sorted."
  (sort (delq nil (mapcar (lambda (d)
                            (let ((lsp (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data d)))))
                              (when lsp
                                (save-excursion
                                  (goto-char (flymake-diagnostic-beg d))
                                  (vector (plist-get lsp :code) (line-number-at-pos) (current-column))))))
                          (flymake-diagnostics)))
        (lambda (a b) (string< (format "%S" a) (format "%S" b)))))

(defun drive-codes () (sort (mapcar (lambda (d) (aref d 0)) (drive-diagnostics)) #'string<))

(defun drive-actions ()
  "Code actions at the tool's \"name\" (line 2), as Eglot's `eglot-code-actions' lists them."
  (save-excursion
    (goto-char (point-min)) (forward-line 1) (forward-char 3)
    (eglot-code-actions (point) (point))))

(defun drive-titles () (mapcar (lambda (a) (plist-get a :title)) (drive-actions)))

(defun drive-execute (action)
  "Run ACTION as Eglot does for the one the user picks."
  (let ((server (eglot-current-server)))
    (if (fboundp 'eglot-execute)
        (eglot-execute server action)
      (eglot--read-execute-code-action (list action) server (plist-get action :kind)))))

(condition-case err
    (progn
      (drive-put 'modes (mapcar (lambda (name)
                                  (with-temp-buffer
                                    (setq buffer-file-name (expand-file-name name))
                                    (set-auto-mode)
                                    (setq buffer-file-name nil)
                                    (cons name (symbol-name major-mode))))
                                (split-string (getenv "TOOLCAST_NAMES") ",")))
      (let ((start (float-time)))
        (find-file (getenv "TOOLCAST_FILE"))
        (drive-put 'mode (symbol-name major-mode))
        (run-hooks 'post-command-hook)  ; the command loop would, after the find-file command
        (unless (drive-wait (lambda () (eglot-managed-p))) (error "Eglot did not attach"))
        (drive-put 'command (process-command (jsonrpc--process (eglot-current-server))))
        ;; 1. Settings from .dir-locals.el, pulled with workspace/configuration before the first check.
        (unless (drive-wait (lambda () (member "TC302" (drive-codes)))) (error "no diagnostics: %S" (flymake-diagnostics)))
        (drive-put 'first_diagnostics_s (- (float-time) start)))
      (drive-put 'diagnostics (vconcat (drive-diagnostics)))
      (drive-put 'titles (vconcat (drive-titles)))
      (when (equal (getenv "TOOLCAST_STEPS") "attach") (error "done"))
      ;; 2. A settings change: the user sets it and tells the server (M-x eglot-signal-didChangeConfiguration).
      (setq-local eglot-workspace-configuration '(:toolcast (:targets ["anthropic"])))
      (eglot-signal-didChangeConfiguration (eglot-current-server))
      ;; Wait for what the change changes (the export titles): the diagnostics were TC302 alone before it too.
      (unless (drive-wait (lambda () (equal (drive-titles) '("Export to Anthropic"))))
        (error "settings not applied: %S" (drive-titles)))
      (drive-put 'changed_diagnostics (vconcat (drive-diagnostics)))
      (drive-put 'changed_titles (vconcat (drive-titles)))
      ;; 3. The quick fix of TC302, asked for with Flymake's diagnostic under point as Eglot sends it.
      (goto-char (flymake-diagnostic-beg (car (flymake-diagnostics))))
      (let* ((fixes (seq-filter (lambda (a) (equal (plist-get a :kind) "quickfix"))
                                (eglot-code-actions (point) (1+ (point))))))
        (drive-put 'fixes (vconcat (mapcar (lambda (a) (plist-get a :title)) fixes)))
        (drive-execute (car fixes)))
      (drive-put 'fixed_text (buffer-substring-no-properties (point-min) (point-max)))
      (unless (drive-wait (lambda () (null (drive-codes)))) (error "fix left %S" (drive-codes)))
      (save-buffer)
      ;; 4. The export: written by the server, which tells where.
      (setq drive-messages nil)
      (let ((export (seq-find (lambda (a) (equal (plist-get a :title) "Export to Anthropic")) (drive-actions))))
        (drive-put 'export_action export)
        (drive-put 'export_result (drive-execute export)))
      (let ((asked (float-time)))
        (drive-put 'export_told (drive-wait (lambda () (seq-find (lambda (m) (string-match-p "toolcast: exported" m))
                                                                 drive-messages))
                                            20))
        (drive-put 'export_told_s (- (float-time) asked)))
      (drive-put 'export_messages (vconcat (reverse drive-messages)))
      (drive-put 'titles_after_export (vconcat (drive-titles))))
  (error (unless (equal err '(error "done")) (drive-put 'error (error-message-string err)))))

(when (and (getenv "TOOLCAST_EVENTS") (eglot-current-server))
  (with-current-buffer (jsonrpc-events-buffer (eglot-current-server))
    (write-region (point-min) (point-max) (getenv "TOOLCAST_EVENTS"))))
(princ (concat (json-encode drive-out) "\n"))
(kill-emacs 0)
