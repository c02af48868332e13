"""Writes docs/starlark.md, the reference of gradgen's public Starlark API, from the .bzl files' docs.

Stardoc needs a newer Bazel and a download, neither of which this machine has, so this script does
its job for gradgen's files: Starlark is Python syntax, so `ast` parses every .bzl file. Starting
from the two files users load (`@gradgen//bazel:defs.bzl`, `@gradgen//bazel:repositories.bzl`), it
follows `load()`s to where each public name is defined and documents it:

- a rule (`x = rule(doc = ..., attrs = {...})`): its doc, and every public attribute's type (from
  `attr.<kind>`), default, allowed values and doc;
- a provider (`X = provider(doc = ..., fields = {...})`): its doc and fields;
- a macro or function (`def x(...)` with a Google-style docstring): its docstring, and every
  argument of its `Args:` section with the default of the signature.

A doc that starts with a type (`"Label: the op declarations ..."`, `"list[str]: ..."`) gives that
type its own column. Usage, from the repository root (standard library only):

    python3 tools/docs/gen_starlark_docs.py            # (re)writes docs/starlark.md
    python3 tools/docs/gen_starlark_docs.py --check    # exit 1, saying so, if it differs

//tests/docs:starlark_docs_test runs the same rendering in `./bazelw test //...` and fails when
docs/starlark.md is not what this script writes.
"""

import argparse
import ast
import inspect
import json
import os
import re
import sys

# The files users load, as they load them, and where they are in this repository.
ENTRY_FILES = [
    ("@gradgen//bazel:defs.bzl", "bazel/defs.bzl"),
    ("@gradgen//bazel:repositories.bzl", "bazel/repositories.bzl"),
]
OUTPUT = "docs/starlark.md"
REGENERATE = "python3 tools/docs/gen_starlark_docs.py"

# A doc starting with one of these and ": " names its value's type.
_TYPE_PREFIX = re.compile(
    r"^((?:list|dict|depset)\[[^\]]+\]|Label|File|str|string|int|bool|struct|Target)(?::\s+|$)", re.S
)

# The type each attr.<kind>() holds, and its default when the rule gives none.
_ATTR_KINDS = {
    "bool": ("bool", "False"),
    "int": ("int", "0"),
    "int_list": ("list[int]", "[]"),
    "label": ("Label", "None"),
    "label_keyed_string_dict": ("dict[Label, str]", "{}"),
    "label_list": ("list[Label]", "[]"),
    "output": ("Label (output)", "None"),
    "output_list": ("list[Label] (outputs)", "[]"),
    "string": ("str", '""'),
    "string_dict": ("dict[str, str]", "{}"),
    "string_list": ("list[str]", "[]"),
    "string_list_dict": ("dict[str, list[str]]", "{}"),
}


class DocError(Exception):
    """A .bzl file this script cannot read or document; the message says which and why."""


class BzlFile:
    """One parsed .bzl file: its top-level definitions and what it loads."""

    def __init__(self, root, path):
        self.path = path
        full = os.path.join(root, path)
        try:
            with open(full, encoding="utf-8") as fh:
                text = fh.read()
        except OSError as e:
            raise DocError(f"cannot read {path}: {e.strerror}") from e
        try:
            self.module = ast.parse(text, filename=path)
        except SyntaxError as e:
            raise DocError(f"{path}:{e.lineno}: not parseable as Python syntax: {e.msg}") from e
        self.doc = ast.get_docstring(self.module) or ""
        self.loader = None  # the Loader that read this file, which resolves loaded names
        self.loads = {}  # local name -> (path of the loaded file, name there)
        self.defs = {}  # name -> ast node (FunctionDef, or the value of an assignment)
        self.order = []  # public names, in the order the file defines them
        for node in self.module.body:
            if isinstance(node, ast.Expr) and _is_call(node.value, "load"):
                self._add_load(node.value)
            elif isinstance(node, ast.FunctionDef):
                self._define(node.name, node)
            elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                self._define(node.targets[0].id, node.value)

    def _define(self, name, node):
        self.defs[name] = node
        if not name.startswith("_") and name not in self.order:
            self.order.append(name)

    def _add_load(self, call):
        label = _string(call.args[0], self.path)
        path = _label_path(label, self.path)  # None for another repository's file
        for arg in call.args[1:]:
            name = _string(arg, self.path)
            self.loads[name] = (path, name)
        for kw in call.keywords:
            self.loads[kw.arg] = (path, _string(kw.value, self.path))

    def constant(self, node):
        """The string `node` is: a literal, the name of a top-level string constant, or `"..." % x`
        with x (or each of a tuple) such a name or literal, an int or a string; a name may be
        loaded from another of gradgen's files (the rules' docs quote bazel/private/contract.bzl)."""
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            args = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
            values = []
            for arg in args:
                value = self._defined(arg)
                if not isinstance(value, ast.Constant) or type(value.value) not in (int, str):
                    raise DocError(f"{self.path}:{arg.lineno}: expected an int or a string, found `{ast.unparse(arg)}`")
                values.append(value.value)
            return self.constant(node.left) % tuple(values)
        return _string(self._defined(node), self.path)

    def _defined(self, node):
        """What a name `node` is defined as (here, or where it is loaded from); any other node as is."""
        if not isinstance(node, ast.Name):
            return node
        if node.id in self.defs:
            return self.defs[node.id]
        if node.id in self.loads and self.loader is not None:
            return self.loader.resolve(self.path, node.id)[2]
        return node


def _is_call(node, name):
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name


def _string(node, path):
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    raise DocError(f"{path}:{node.lineno}: expected a string literal, found `{ast.unparse(node)}`")


def _label_path(label, from_path):
    """The repository path of a .bzl label: "//bazel/private:codegen.bzl", ":codegen.bzl"."""
    if label.startswith(":"):
        return os.path.join(os.path.dirname(from_path), label[1:])
    m = re.fullmatch(r"(?:@gradgen)?//([\w/.-]*):([\w/.-]+\.bzl)", label)
    return os.path.join(m.group(1), m.group(2)) if m else None


class Loader:
    """Parses .bzl files once each and resolves a name to the file and node that define it."""

    def __init__(self, root):
        self.root = root
        self.files = {}

    def file(self, path):
        if path not in self.files:
            self.files[path] = BzlFile(self.root, path)
            self.files[path].loader = self
        return self.files[path]

    def resolve(self, path, name, seen=()):
        """(BzlFile, name, node) where `name`, as seen in `path`, is defined."""
        if (path, name) in seen:
            raise DocError(f"{path}: {name} is defined in terms of itself")
        seen = seen + ((path, name),)
        f = self.file(path)
        if name in f.defs:
            node = f.defs[name]
            if isinstance(node, ast.Name):  # a re-export: `x = _x`
                return self.resolve(path, node.id, seen)
            return f, name, node
        if name in f.loads:
            other, other_name = f.loads[name]
            if other is None:
                raise DocError(f"{path}: {name} comes from another repository; only gradgen's own names are documented")
            return self.resolve(other, other_name, seen)
        raise DocError(f"{path}: {name} is neither defined nor loaded there")


# --- Docstrings and doc strings --------------------------------------------------------------


def _split_type(text):
    """("list[str]", "the rest") for "list[str]: the rest"; ("", text) without a type."""
    m = _TYPE_PREFIX.match(text)
    if not m:
        return "", text
    return re.sub(r"\bstring\b", "str", m.group(1)), text[m.end() :]


def _value(node):
    """A default value as Starlark writes it (double-quoted strings), from its syntax tree."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return json.dumps(node.value)
    if isinstance(node, (ast.List, ast.Tuple)):
        items = ", ".join(_value(e) for e in node.elts)
        return f"[{items}]" if isinstance(node, ast.List) else f"({items})"
    if isinstance(node, ast.Dict):
        return "{" + ", ".join(f"{_value(k)}: {_value(v)}" for k, v in zip(node.keys, node.values)) + "}"
    if isinstance(node, ast.Call):
        args = [_value(a) for a in node.args] + [f"{k.arg} = {_value(k.value)}" for k in node.keywords]
        return f"{ast.unparse(node.func)}({', '.join(args)})"
    return ast.unparse(node)


def _cell(text):
    """`text` as one Markdown table cell: one line, `|` escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def _markdown(text):
    """A docstring's prose as Markdown: indented runs of code become fenced starlark blocks."""
    out = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        starts_block = line.startswith("    ") and (i == 0 or not lines[i - 1].strip())
        if starts_block and not lines[i - 1 if i else 0].lstrip().startswith("-"):
            block = []
            while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
                block.append(lines[i][4:])
                i += 1
            while block and not block[-1].strip():
                block.pop()
            out += ["```starlark"] + block + ["```", ""]
            continue
        out.append(line)
        i += 1
    return "\n".join(out).strip()


_SECTION = re.compile(r"^(Args|Arguments|Returns|Raises|Yields):\s*$")


def _parse_docstring(doc):
    """(description, {arg: text}, {other section: text}) of a Google-style docstring."""
    lines = inspect.cleandoc(doc).split("\n") if doc else []
    description, args, sections = [], {}, {}
    section, current = None, None
    for line in lines:
        m = _SECTION.match(line)
        if m:
            section, current = m.group(1), None
            if section not in ("Args", "Arguments"):
                sections[section] = []
            continue
        if section is None:
            description.append(line)
        elif section in ("Args", "Arguments"):
            m = re.match(r"^  ?\s?(\*{0,2}\w+):\s*(.*)$", line)
            if m and not line.startswith("     "):
                current = m.group(1)
                args[current] = [m.group(2)]
            elif current is not None:
                args[current].append(line.strip())
        else:
            sections[section].append(line[2:] if line.startswith("  ") else line)
    return (
        "\n".join(description).strip(),
        {name: " ".join(" ".join(text).split()) for name, text in args.items()},
        {name: "\n".join(text).strip() for name, text in sections.items()},
    )


# --- Rendering -------------------------------------------------------------------------------


def _signature(name, params):
    """`name(a, b, c = 1, ...)` wrapped at 100 columns, as a fenced block."""
    parts = [p if default is None else f"{p} = {default}" for p, default in params]
    lines, line = [], name + "("
    for k, part in enumerate(parts):
        piece = part + (", " if k < len(parts) - 1 else ")")
        if len(line) + len(piece.rstrip()) > 100 and line.strip():
            lines.append(line.rstrip())
            line = " " * (len(name) + 1)
        line += piece
    lines.append(line.rstrip() if parts else name + "()")
    return "```starlark\n" + "\n".join(lines) + "\n```"


def _table(header, rows):
    out = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(out)


def _render_rule(f, name, call):
    kw = {k.arg: k.value for k in call.keywords}
    doc = f.constant(kw["doc"]) if "doc" in kw else ""
    rows = [("`name`", "Name", "mandatory", "A unique name for this target.")]
    params = [("name", None)]
    attrs = kw.get("attrs")
    if attrs is not None and not isinstance(attrs, ast.Dict):
        raise DocError(f"{f.path}:{attrs.lineno}: {name}'s attrs must be a dict literal to be documented")
    for key, value in zip(attrs.keys, attrs.values) if attrs is not None else []:
        attr = f.constant(key)
        if attr.startswith("_"):
            continue
        if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)):
            raise DocError(f"{f.path}:{value.lineno}: attribute {attr} of {name} is not an attr.<kind>(...) call")
        kind, kind_default = _ATTR_KINDS.get(value.func.attr, (value.func.attr, "None"))
        akw = {k.arg: k.value for k in value.keywords}
        text = f.constant(akw["doc"]) if "doc" in akw else ""
        doc_type, text = _split_type(text)
        mandatory = "mandatory" in akw and ast.unparse(akw["mandatory"]) == "True"
        default = "mandatory" if mandatory else (_value(akw["default"]) if "default" in akw else kind_default)
        if "values" in akw:
            text += " One of: " + ", ".join(f"`{_value(v)}`" for v in akw["values"].elts) + "."
        rows.append((f"`{attr}`", doc_type or kind, "mandatory" if mandatory else f"`{default}`", _cell(text)))
        params.append((attr, None if mandatory else default))
    return "\n\n".join(
        [
            _signature(name, params),
            _markdown(inspect.cleandoc(doc)),
            _table(("Attribute", "Type", "Default", "Description"), rows),
        ]
    )


def _render_provider(f, name, call):
    kw = {k.arg: k.value for k in call.keywords}
    parts = [_markdown(inspect.cleandoc(f.constant(kw["doc"])))] if "doc" in kw else []
    fields = kw.get("fields")
    if isinstance(fields, ast.Dict):
        rows = []
        for key, value in zip(fields.keys, fields.values):
            field_type, text = _split_type(f.constant(value))
            rows.append((f"`{f.constant(key)}`", field_type, _cell(text)))
        parts.append(_table(("Field", "Type", "Description"), rows))
    return "\n\n".join(parts)


def _render_function(f, name, node):
    description, arg_docs, sections = _parse_docstring(ast.get_docstring(node))
    a = node.args
    positional = a.posonlyargs + a.args
    defaults = [None] * (len(positional) - len(a.defaults)) + [_value(d) for d in a.defaults]
    params = list(zip([p.arg for p in positional], defaults))
    params += [(p.arg, None if d is None else _value(d)) for p, d in zip(a.kwonlyargs, a.kw_defaults)]
    if a.vararg:
        params.append(("*" + a.vararg.arg, None))
    if a.kwarg:
        params.append(("**" + a.kwarg.arg, None))
    rows = []
    for param, default in params:
        text = arg_docs.get(param, "")
        if not text:
            raise DocError(f"{f.path}:{node.lineno}: {name}'s docstring has no entry for `{param}` under Args:")
        arg_type, text = _split_type(text)
        shown = (
            "mandatory"
            if default is None and not param.startswith("*")
            else ("" if default is None else f"`{default}`")
        )
        rows.append((f"`{param}`", arg_type, shown, _cell(text)))
    unknown = sorted(set(arg_docs) - {p for p, _ in params})
    if unknown:
        raise DocError(f"{f.path}:{node.lineno}: {name}'s docstring documents {', '.join(unknown)}, not its arguments")
    parts = [_signature(name, params), _markdown(description)]
    if rows:
        parts.append(_table(("Argument", "Type", "Default", "Description"), rows))
    for section, text in sections.items():
        parts.append(f"**{section}:** " + _markdown(text))
    return "\n\n".join(parts)


def _kind(node):
    if isinstance(node, ast.FunctionDef):
        return "function"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("rule", "provider"):
        return node.func.id
    return None


def render(root):
    """The text of docs/starlark.md for the checkout at `root`."""
    loader = Loader(root)
    out = [
        "# Starlark API reference",
        "",
        "<!-- Generated by tools/docs/gen_starlark_docs.py from the doc strings of bazel/*.bzl and the",
        f"     files they load: edit those, then run `{REGENERATE}`. -->",
        "",
        "What a BUILD or WORKSPACE file can load from gradgen, generated from the rules' and macros' own",
        "documentation. How to use them is in [the tour](../README.md#a-five-minute-tour) and",
        "[workspace.md](workspace.md); what the rules do inside, in",
        "[architecture.md](architecture.md#the-rule-set-bazel).",
        "",
    ]
    sections = []
    for label, path in ENTRY_FILES:
        f = loader.file(path)
        entries = []
        for public in f.order:
            where, name, node = loader.resolve(path, public)
            kind = _kind(node)
            if kind is None:
                continue  # a constant, not API
            renderer = {"rule": _render_rule, "provider": _render_provider, "function": _render_function}[kind]
            what = {
                "rule": "rule",
                "provider": "provider",
                "function": "macro" if path.endswith("defs.bzl") else "function",
            }
            entries.append((public, what[kind], where.path, renderer(where, name, node)))
        sections.append((label, f, entries))
        out.append(f"- [`{label}`](#{_anchor(label)}): " + ", ".join(f"[`{e[0]}`](#{_anchor(e[0])})" for e in entries))
    out.append("")
    for label, f, entries in sections:
        out += [f"## `{label}`", "", _markdown(f.doc), ""]
        for public, what, where, body in entries:
            out += [f"### `{public}`", "", f"A {what}, defined in `{where}`.", "", body, ""]
    return "\n".join(out).rstrip() + "\n"


def _anchor(title):
    """GitHub's anchor of a heading made of `title` in backquotes."""
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 if docs/starlark.md differs")
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    args = parser.parse_args(argv)
    try:
        text = render(args.root)
    except DocError as e:
        print(f"gen_starlark_docs: {e}", file=sys.stderr)
        return 1
    out = os.path.join(args.root, OUTPUT)
    if args.check:
        with open(out, encoding="utf-8") as fh:
            if fh.read() != text:
                print(f"{OUTPUT} is out of date: run `{REGENERATE}`", file=sys.stderr)
                return 1
        return 0
    with open(out, "w", encoding="utf-8") as fh:
        fh.write(text)
    print(f"wrote {OUTPUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
