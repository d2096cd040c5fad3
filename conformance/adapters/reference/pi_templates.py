"""Reference handlers of the template operations (``pi.load-templates``, ``pi.parse-args``,
``pi.substitute-args``, ``pi.expand-input``)."""

from __future__ import annotations

import os
from pathlib import Path

from conformance.adapters.reference import Context, implements
from conformance.operations.pi_templates import (
    ExpandInputInput,
    ExpandInputOutput,
    LoadedTemplate,
    LoadTemplatesInput,
    LoadTemplatesOutput,
    ParseArgsInput,
    ParseArgsOutput,
    SubstituteArgsInput,
    SubstituteArgsOutput,
    TemplateDiagnosticOut,
)
from reference.errors import SpecError
from reference.pi.host.disk import load_prompt_templates
from reference.pi.core.templates import Template, expand_input, parse_command_args, substitute_args
from reference.text import js_trim


def tree_root(ctx: Context, op: str) -> Path:
    """The root of the case's tree, for a pi operation that reads one. Raises ``SpecError``
    ``tree-missing`` when the case has no tree (nothing of the machine's own disk is read)."""
    if ctx.root is None:
        raise SpecError("tree-missing", f"{op} reads a file tree; the case has none", path="tree")
    return Path(ctx.root)


def inside_tree(root: Path, relative: str, field: str) -> Path:
    """``root / relative`` (``""`` is the root itself). Raises ``SpecError``
    ``input-path-outside-tree`` for an absolute path or one with a ``..`` part."""
    if os.path.isabs(relative) or ".." in Path(relative).parts:
        raise SpecError("input-path-outside-tree", f"{field} must be a path inside the tree: {relative!r}", path=field)
    return root / relative


@implements("pi.load-templates")
def load_templates(inp: LoadTemplatesInput, ctx: Context) -> LoadTemplatesOutput:
    root = tree_root(ctx, "pi.load-templates")
    cwd = inside_tree(root, inp.cwd, "cwd")
    for i, raw in enumerate(inp.paths):
        resolved = os.path.normpath(cwd / js_trim(raw))
        if os.path.isabs(raw) or os.path.relpath(resolved, root).startswith(".."):
            raise SpecError("input-path-outside-tree", f"paths[{i}] must lead inside the tree: {raw!r}", path=f"paths[{i}]")
    loaded = load_prompt_templates(
        inside_tree(root, inp.agentDir, "agentDir"),
        cwd,
        project_trusted=inp.projectTrusted,
        paths=inp.paths,
        default_folders=inp.defaultFolders,
        personal_prompts=inp.personalPrompts,
        project_prompts=inp.projectPrompts,
    )

    def rel(path: str | None) -> str | None:
        return None if path is None else Path(os.path.relpath(path, root)).as_posix()

    return LoadTemplatesOutput(
        templates=[
            LoadedTemplate(
                name=t.name,
                description=t.description,
                argumentHint=t.argumentHint,
                content=t.content,
                path=rel(t.path),
                scope=t.scope,
            )
            for t in loaded.templates
        ],
        diagnostics=[
            TemplateDiagnosticOut(code=d.code, path=rel(d.path), name=d.name, winnerPath=rel(d.winnerPath))
            for d in loaded.diagnostics
        ],
    )


@implements("pi.parse-args")
def parse_args(inp: ParseArgsInput, ctx: Context) -> ParseArgsOutput:
    return ParseArgsOutput(args=parse_command_args(inp.text))


@implements("pi.substitute-args")
def substitute(inp: SubstituteArgsInput, ctx: Context) -> SubstituteArgsOutput:
    return SubstituteArgsOutput(text=substitute_args(inp.content, inp.args))


@implements("pi.expand-input")
def expand(inp: ExpandInputInput, ctx: Context) -> ExpandInputOutput:
    templates = [Template(name=t.name, description="", argumentHint=None, content=t.content) for t in inp.templates]
    result = expand_input(inp.text, templates, frozenset(inp.extensionCommands))
    return ExpandInputOutput(
        kind=result.kind,
        text=result.text,
        name=result.name,
        args=result.args if result.kind == "template" else None,
        argText=result.args if result.kind == "extension-command" else None,
    )
