"""The Mako templates of tools/codegen/templates/, compiled once at build time.

Compiling the eight templates (Mako's lexer and code generator, then Python's compiler) took
about 40 ms of every fresh codegen process. `//tools/codegen:compiled_templates` runs this module
as a script at build time: it writes `compiled_templates.bin`, a marshalled dict
`{template name: (crc32 of the template's bytes, code object of Mako's generated module)}`
(and the cache tag of the Python that compiled it), which
the codegen loads instead (`template(name)`). The file is the same bytes in every checkout: the
generated module's only timestamp (`_modified_time`) is set to 0 and it records no file name.
When the file is missing (a run from the source tree) or was made from other template text (its
crc32 differs), the template is compiled here as before: the output is the same either way.

  python3 tools/codegen/mako_templates.py OUT.bin          # what the build runs
"""

from __future__ import annotations

import functools
import marshal
import os
import sys
import types
import zlib
from typing import Dict, Tuple

TEMPLATES_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")
COMPILED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "compiled_templates.bin")

# The key of the Python that compiled the file (its cache tag, "cpython-311").
_PYTHON = "python"

# Every template, by file name (what `template()` is asked for).
NAMES = (
    "Functions.cpp",
    "Functions.h",
    "NativeFunctions.h",
    "VariableType.cpp",
    "VariableType.h",
    "gradcheck_test.cpp",
    "python_functions.cpp",
    "python_functions.h",
)


def _read(name: str) -> bytes:
    with open(os.path.join(TEMPLATES_DIR, name), "rb") as fh:
        return fh.read()


def module_source(name: str, text: bytes) -> str:
    """The Python module Mako makes of template `name` (the options the codegen renders with),
    with no timestamp and no file name in it."""
    from mako.template import Template

    source = Template(text=text.decode("utf-8"), uri=name, strict_undefined=True).code
    lines = source.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("_modified_time = "):
            lines[i] = "_modified_time = 0"
    return "\n".join(lines)


def _defer_importlib_metadata() -> None:
    """Makes `importlib.metadata` load on first use instead of when Mako is imported.

    mako.compat imports it for plugin entry points, which the codegen never looks up, and it
    pulls in email, zipfile and csv: about 40 M instructions (callgrind), ~5 ms of every run. The
    standard library's LazyLoader gives a module that loads itself on its first attribute use.
    """
    import importlib
    import importlib.util

    name = "importlib.metadata"
    if name in sys.modules:
        return
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        return
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    # `from importlib import metadata` (mako.compat) takes the attribute, so it must be there too.
    importlib.metadata = module  # type: ignore[attr-defined]


@functools.lru_cache(maxsize=1)
def _compiled() -> Dict[str, Tuple[int, types.CodeType]]:
    try:
        with open(COMPILED, "rb") as fh:
            found = marshal.loads(fh.read())
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    # Code objects are only valid for the Python that made them (cpython-311).
    return found if found.pop(_PYTHON, None) == sys.implementation.cache_tag else {}


@functools.lru_cache(maxsize=None)
def template(name: str):
    """The template `name`, ready to render: from compiled_templates.bin when it was made from
    this text, else compiled now. Compiled once per process."""
    text = _read(name)
    found = _compiled().get(name)
    _defer_importlib_metadata()
    if found is not None and found[0] == zlib.crc32(text):
        from mako.template import ModuleTemplate

        module = types.ModuleType(name)
        exec(found[1], module.__dict__, module.__dict__)
        return ModuleTemplate(module)
    from mako.template import Template

    return Template(filename=os.path.join(TEMPLATES_DIR, name), strict_undefined=True)


def render(name: str, **data) -> str:
    """Template `name` rendered with `data`: what Mako's `Template.render(**data)` returns, by the
    same calls (`mako.runtime._render`), with one difference: the render's Context is emptied
    afterwards. Mako's Context refers to itself (its `capture` helper, its namespaces), so it and
    everything passed to the template (the whole plan) lived on until the cyclic garbage collector
    ran, which the codegen keeps off: a persistent worker spent 0.1-0.2 s per request collecting
    them (75,000 objects on PyTorch's specs)."""
    t = template(name)  # first: it defers importlib.metadata before Mako is imported
    from mako import runtime

    return _render_with(t, data, runtime._kwargs_for_callable(t.callable_, data))


def render_def(name: str, def_name: str, **data) -> str:
    """Def `def_name` of template `name` rendered with `data`, all of which are the def's
    arguments: what Mako's `template.get_def(def_name).render(**data)` returns (by render()'s
    calls)."""
    t = _def_template(name, def_name)
    return _render_with(t, data, data)


@functools.lru_cache(maxsize=None)
def _def_template(name: str, def_name: str):
    return template(name).get_def(def_name)


def _render_with(t, data: dict, kwargs: dict) -> str:
    from mako import runtime, util

    buf = util.FastEncodingBuffer(encoding=t.output_encoding, errors=t.encoding_errors)
    context = runtime.Context(buf, **data)
    context._outputting_as_unicode = False
    context._set_with_template(t)
    try:
        runtime._render_context(t, t.callable_, context, **kwargs)
        return context._pop_buffer().getvalue()
    finally:
        context._data.clear()
        context._kwargs.clear()
        context.namespaces.clear()


def write_compiled(out: str) -> None:
    """Writes every template's code into `out` (the build's compiled_templates.bin)."""
    compiled: Dict[str, object] = {_PYTHON: sys.implementation.cache_tag}
    for name in NAMES:
        text = _read(name)
        compiled[name] = (zlib.crc32(text), compile(module_source(name, text), name, "exec"))
    with open(out, "wb") as fh:
        fh.write(marshal.dumps(compiled))


if __name__ == "__main__":
    write_compiled(sys.argv[1])
