"""What the client can do, resolved once from its capabilities at ``initialize`` (instead of probing
the nested, mostly optional lsprotocol objects in every handler)."""

from __future__ import annotations

from dataclasses import dataclass

from lsprotocol import types as t
from toolcast.adapters.document import Encoding


@dataclass(frozen=True)
class ClientSession:
    encoding: Encoding = "utf-16"  # position encoding negotiated by pygls (the client's first choice)
    pull: bool = False  # pull diagnostics (`textDocument/diagnostic`) instead of pushed ones
    create_files: bool = False  # workspace edits may create files (Neovim declares it without documentChanges)
    # The LSP has no capability for `overwrite`: creating over a file is only offered to clients that
    # also declare delete support, i.e. handle full resource operations.
    overwrite_files: bool = False
    diagnostic_refresh: bool = False  # `workspace/diagnostic/refresh`
    code_lens_refresh: bool = False  # `workspace/codeLens/refresh`
    work_done_progress: bool = False
    show_document: bool = False  # `window/showDocument`
    watch_registration: bool = False  # dynamic registration of watched files
    config_registration: bool = False  # dynamic registration of configuration changes
    configuration: bool = False  # `workspace/configuration`
    # `codeAction/resolve` may fill in an action's `edit` (resolveSupport.properties has "edit"): export
    # actions are then listed without their edit and computed only when chosen.
    resolve_edit: bool = False
    disabled_actions: bool = False  # a code action may be listed as disabled, with the reason (disabledSupport)

    @classmethod
    def resolve(cls, caps: t.ClientCapabilities, encoding: object) -> ClientSession:
        ws, td, window = caps.workspace, caps.text_document, caps.window
        edit = ws.workspace_edit if ws else None
        ops = (edit.resource_operations if edit else None) or []
        watch = ws.did_change_watched_files if ws else None
        conf = ws.did_change_configuration if ws else None
        diag = ws.diagnostics if ws else None
        lens = ws.code_lens if ws else None
        action = td.code_action if td else None
        resolvable = (action.resolve_support.properties if action and action.resolve_support else None) or []
        value = getattr(encoding, "value", encoding)  # pygls keeps lsprotocol's PositionEncodingKind
        enc: Encoding = value if value in ("utf-8", "utf-32") else "utf-16"
        return cls(
            encoding=enc,
            pull=bool(td is not None and td.diagnostic is not None),
            create_files=t.ResourceOperationKind.Create in ops,
            overwrite_files=t.ResourceOperationKind.Delete in ops,
            diagnostic_refresh=bool(diag is not None and diag.refresh_support),
            code_lens_refresh=bool(lens is not None and lens.refresh_support),
            work_done_progress=bool(window and window.work_done_progress),
            show_document=bool(window and window.show_document and window.show_document.support),
            watch_registration=bool(watch is not None and watch.dynamic_registration),
            config_registration=bool(conf is not None and conf.dynamic_registration),
            configuration=bool(ws is not None and ws.configuration),
            resolve_edit="edit" in resolvable,
            disabled_actions=bool(action and action.disabled_support),
        )
