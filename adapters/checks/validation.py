"""JSON Schema validation for the checks: the 2020-12 meta-schema, `$ref` resolution restricted to the
document and workspace files (never the network), and instance validation of defaults and examples."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any
from urllib.parse import unquote, urlsplit

import referencing
import referencing.exceptions
from jsonschema import Draft4Validator, Draft6Validator, Draft7Validator, Draft201909Validator, Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from jsonschema.validators import validator_for
from referencing.jsonschema import DRAFT202012

from .. import pointer as jp
from ..schema.bounded import BoundedValidator, PatternTooCostly
from ..schema.depth import MAX_VALIDATION_DEPTH, json_depth
from ..schema.fast_instance import certainly_valid_instance
from ..schema.fast_meta import certainly_valid
from .workspace_files import WorkspaceFiles

_META = Draft202012Validator(Draft202012Validator.META_SCHEMA)
#: The meta-schema validator of each draft a `$schema` may name (built at import, as the 2020-12 one).
_METAS: Mapping[type, Any] = MappingProxyType({
    cls: cls(cls.META_SCHEMA) for cls in (Draft4Validator, Draft6Validator, Draft7Validator, Draft201909Validator)
} | {Draft202012Validator: _META})


def meta_validator(root: Any) -> Any:
    """The meta-schema validator of the dialect ``root`` declares with ``$schema`` (draft-04 to 2020-12, read as
    that draft says: draft-07's tuple `items` and `additionalItems` are valid there), 2020-12 when it declares
    none or one jsonschema does not know."""
    cls = validator_for(root, default=Draft202012Validator) if isinstance(root, dict) else Draft202012Validator
    return _METAS.get(cls, _META)
_ROOT_URI = "urn:toolcast:schema"
_REMOTE_SCHEMES = ("http", "https", "ftp")


def _path_pointer(path: Any) -> str:
    return jp.from_parts(list(path))


def _retriever(workspace: Path | None, files: WorkspaceFiles) -> Any:
    def retrieve(uri: str) -> referencing.Resource[Any]:
        parts = urlsplit(uri)
        if parts.scheme != "file" or workspace is None:
            raise referencing.exceptions.NoSuchResource(ref=uri)  # type: ignore[call-arg]
        path = Path(unquote(parts.path)).resolve()
        if workspace not in path.parents or not path.is_file():
            raise referencing.exceptions.NoSuchResource(ref=uri)  # type: ignore[call-arg]
        contents = files.load(str(path), path.stat().st_mtime)
        return referencing.Resource.from_contents(contents, default_specification=DRAFT202012)

    return retrieve


class Validation:
    """Validation services for one schema ``root`` (the parameters or returns of a tool); ``files``
    remembers the workspace files `$ref`s read (a fresh one when not given)."""

    def __init__(self, root: Any, base_dir: str | None, files: WorkspaceFiles | None = None) -> None:
        self.root = root
        self.workspace = Path(base_dir).resolve() if base_dir else None
        self.base = (self.workspace / "__toolcast_document__.json").as_uri() if self.workspace else _ROOT_URI
        self._files = files
        self._registry: referencing.Registry[Any] | None = None
        self.last_error_path = ""
        self._schema_ok: bool | None = None
        self._validators: dict[str, Any] = {}  # compiled per subschema, reused for every instance
        self.too_deep = json_depth(root, MAX_VALIDATION_DEPTH) > MAX_VALIDATION_DEPTH

    @property
    def registry(self) -> referencing.Registry[Any]:
        """The root and the workspace files its `$ref`s name; made on first use (most tools have no
        `$ref` and no default the fast checks leave open)."""
        if self._registry is None:
            resource = referencing.Resource.from_contents(self.root, default_specification=DRAFT202012)
            registry: referencing.Registry[Any] = referencing.Registry(  # type: ignore[call-arg]
                retrieve=_retriever(self.workspace, self._files if self._files is not None else WorkspaceFiles())
            )
            self._registry = registry.with_resource(self.base, resource)
        return self._registry

    def meta_errors(self) -> list[tuple[str, str]]:
        """(pointer relative to the root, message) for each meta-schema violation; misspelt ``type``
        names are left to TC110, which says what the type should be."""
        out: list[tuple[str, str]] = []
        if self.too_deep:
            self._schema_ok = False
            return out
        if certainly_valid(self.root):
            self._schema_ok = True
            return out
        try:
            errors = list(meta_validator(self.root).iter_errors(self.root))
        except RecursionError:
            self.too_deep, self._schema_ok = True, False
            return out
        for err in errors:
            ptr = _path_pointer(err.absolute_path)
            if (err.absolute_path and err.absolute_path[-1] == "type") or (
                len(err.absolute_path) > 1 and err.absolute_path[-2] == "type"
            ):
                continue
            found = (ptr, _short(err))
            if found not in out:  # 2020-12's vocabularies report one fault once per path that reaches it
                out.append(found)
        self._schema_ok = not out
        return out

    def schema_ok(self) -> bool:
        if self._schema_ok is None:
            try:
                self._schema_ok = not self.too_deep and (
                    certainly_valid(self.root) or meta_validator(self.root).is_valid(self.root)
                )
            except RecursionError:
                self._schema_ok = False
        return self._schema_ok

    def ref_problem(self, ref: str) -> str | None:
        """None when ``ref`` resolves; ``"remote"`` for a network reference; else why it does not."""
        scheme = urlsplit(ref).scheme
        if scheme in _REMOTE_SCHEMES:
            return "remote"
        try:
            self.registry.resolver(self.base).lookup(ref)
        except referencing.exceptions.Unresolvable as exc:
            if isinstance(exc, referencing.exceptions.PointerToNowhere):
                return "no such location in the document"
            return "no such file in the workspace" if not ref.startswith("#") else "no such anchor"
        except Exception as exc:  # malformed references: report, never crash
            return str(exc) or type(exc).__name__
        return None

    def instance_error(self, rel: str, instance: Any, with_path: bool = False) -> str | None:
        """Why ``instance`` is invalid against the subschema at ``rel`` (None when valid or when the
        schema itself is broken, which TC301 reports). `PatternTooCostly` when a pattern could not be
        matched against it in time: the instance is then neither valid nor invalid."""
        if not self.schema_ok():
            return None
        if certainly_valid_instance(jp.resolve(self.root, rel, None), instance):
            return None
        try:
            validator = self._validators.get(rel)
            if validator is None:
                validator = BoundedValidator({"$ref": self.base + "#" + rel}, registry=self.registry)
                self._validators[rel] = validator
            err = best_match(validator.iter_errors(instance))
        except PatternTooCostly:
            raise
        except (Exception, RecursionError):  # unresolvable refs, bad patterns: reported by other rules
            return None
        if err is None:
            return None
        self.last_error_path = _path_pointer(err.absolute_path) if with_path else ""
        return _short(err)


def _short(err: ValidationError) -> str:
    msg = str(err.message)
    return msg if len(msg) <= 200 else msg[:197] + "..."
