"""Writes compile_commands.json for an editor (clangd): every C++ compile Bazel runs, as it runs it.

    ./bazelw run //tools:compile_commands                        # all of //...
    bazel run @gradgen//tools:compile_commands -- //ops/...      # from a workspace using gradgen
    bazel run @gradgen//tools:compile_commands -- //... -- --config=asan

Targets come first (default `//...`); flags after a second `--` go to each Bazel command, so the
commands are those of that configuration. What it does, in the workspace `bazel run` was called
from (BUILD_WORKSPACE_DIRECTORY):

1. asks `bazel aquery` for every `CppCompile` action of the targets and their dependencies: the
   exact arguments Bazel runs, not a guess;
2. builds the targets whose actions generate code (`GradgenCodegen`), so the generated headers
   and sources an editor opens exist (`Functions.h`, `VariableType.cpp`, ...);
3. writes one entry per source file (generated ones included) into compile_commands.json at the
   workspace root, with the workspace root as the directory. The arguments name paths relative to
   Bazel's execution root: `bazel-out/` resolves through Bazel's convenience symlink, and
   `external/` through a symlink `external` -> `<output base>/external` (every repository Bazel
   fetched) that this tool makes when the workspace has no `external` of its own (add
   `/external` to .gitignore). Files of a generated directory (`shards.cc/`), which Bazel compiles
   through action templates aquery does not expand, get the command of `<name>_kernels`, which
   autograd_library makes from the same attributes as `<name>_shards`, and the Python bindings'
   (`python_shards.cc/`) that of the module's init file (docs/workspace.md).

The arguments are Bazel's, except GCC options that clang (clangd's parser) rejects as unknown
(`_GCC_ONLY`: Bazel's GCC toolchain passes `-fno-canonical-system-headers`); `--exact` keeps them.

`--bazel` (default `$BAZEL`, else `bazel` on PATH) is the Bazel command, with startup options if
the workspace needs them: `--bazel="bazel --output_user_root=/tmp/root"`.
Exit status 1 with one line on stderr when Bazel fails or no compile action is found.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
from typing import Dict, List, Optional, Sequence, Tuple

# The mnemonic of the action that writes the generated sources (bazel/private/codegen.bzl).
_CODEGEN_MNEMONIC = "GradgenCodegen"
# GCC options of Bazel's Linux toolchain that clang reports as "unknown argument" errors.
_GCC_ONLY = frozenset({"-fno-canonical-system-headers"})


class Failure(Exception):
    """A step failed: the message is printed as one line."""


def _bazel(bazel: Sequence[str], workspace: str, args: Sequence[str]) -> str:
    proc = subprocess.run(
        list(bazel) + list(args), cwd=workspace, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    if proc.returncode != 0:
        tail = " | ".join(line for line in proc.stderr.strip().splitlines()[-3:])
        raise Failure(f"`{' '.join(list(bazel) + list(args[:1]))} ...` exited {proc.returncode}: {tail}")
    return proc.stdout


def _universe(targets: Sequence[str]) -> str:
    return "deps(" + " + ".join(targets) + ")"


def codegen_targets(aquery: dict) -> List[str]:
    """The labels of the targets whose actions generate code (`GradgenCodegen`), sorted."""
    labels = {t["id"]: t["label"] for t in aquery.get("targets", [])}
    return sorted({labels[a["targetId"]] for a in aquery.get("actions", []) if a.get("mnemonic") == _CODEGEN_MNEMONIC})


class _Graph:
    """The parts of an `aquery --output=jsonproto` answer the entries are made from."""

    def __init__(self, aquery: dict):
        fragments = {f["id"]: f for f in aquery.get("pathFragments", [])}

        def path(i: int) -> str:
            parts = []
            while i:
                parts.append(fragments[i]["label"])
                i = fragments[i].get("parentId", 0)
            return "/".join(reversed(parts))

        self.paths = {a["id"]: path(a["pathFragmentId"]) for a in aquery.get("artifacts", [])}
        self.depsets = {d["id"]: d for d in aquery.get("depSetOfFiles", [])}
        self.labels = {t["id"]: t["label"] for t in aquery.get("targets", [])}
        self.actions = aquery.get("actions", [])

    def direct_inputs(self, action: dict) -> List[str]:
        ids = [i for d in action.get("inputDepSetIds", []) for i in self.depsets[d].get("directArtifactIds", [])]
        return [self.paths[i] for i in ids]


def _source(args: Sequence[str]) -> Optional[str]:
    return args[args.index("-c") + 1] if "-c" in args[:-1] else None


def _replaced(args: Sequence[str], source: str, obj: str) -> List[str]:
    out = list(args)
    out[out.index("-c") + 1] = source
    if "-o" in out[:-1]:
        out[out.index("-o") + 1] = obj
    return out


def _sibling(label: str, pic: bool, compiles: Dict[Tuple[str, bool], List[str]], inits: Dict[str, List[List[str]]]):
    """The command a generated directory's files of target `label` borrow, or None."""
    if label.endswith("_shards"):
        return compiles.get((label[: -len("_shards")] + "_kernels", pic))
    if label.endswith("_python_bindings"):
        # The module's init file (gradgen_py_extension): the same BINDINGS_COPTS, and through its
        # dependencies (the bindings library among them) the bindings' include paths.
        candidates = inits.get(label.split(":")[0], [])
        return candidates[0] if len(candidates) == 1 else None
    return None


def _expanded_templates(
    graph: _Graph,
    compiles: Dict[Tuple[str, bool], List[str]],
    inits: Dict[str, List[List[str]]],
    directory: str,
) -> Tuple[dict, List[str]]:
    """Commands for the files of generated directories (the automatic shard count's `shards.cc/`
    and `python_shards.cc/`), which Bazel compiles through action templates that aquery does not
    expand. autograd_library makes `<name>_shards` from the same attributes as `<name>_kernels`
    (bazel/private/library.bzl), so the kernels' command with the file and object replaced is the
    shard file's; the Python bindings' files take the module init's (`_sibling`). Returns
    {file: arguments} and the directories left without a command (no such sibling)."""
    found: Dict[str, List[str]] = {}
    uncovered: List[str] = []
    for action in graph.actions:
        if action.get("mnemonic") != "CppCompileActionTemplate":
            continue
        label = graph.labels[action["targetId"]]
        out_dir = graph.paths[action["outputIds"][0]]
        pic = "/_pic_objs/" in out_dir
        sibling = _sibling(label, pic, compiles, inits)
        for tree in graph.direct_inputs(action):
            if not os.path.isdir(os.path.join(directory, tree)):
                continue
            if sibling is None:
                uncovered.append(tree)
                continue
            for name in sorted(os.listdir(os.path.join(directory, tree))):
                if name.endswith((".cc", ".cpp")):
                    obj = f"{out_dir}/{os.path.splitext(name)[0]}.{'pic.o' if pic else 'o'}"
                    found.setdefault(f"{tree}/{name}", _replaced(sibling, f"{tree}/{name}", obj))
    # A directory compiled twice (PIC and not) is covered when either command is known.
    covered = {os.path.dirname(f) for f in found}
    return found, sorted(set(uncovered) - covered)


def entries_of(aquery: dict, directory: str, exact: bool = False) -> Tuple[List[Dict[str, object]], List[str]]:
    """compile_commands.json's entries for the CppCompile actions of an `aquery --output=jsonproto`
    answer (run in `directory`, after the generated files are built): one per source file (a file
    compiled twice, PIC and not, keeps its first action), generated directories' files included,
    sorted by file; without `exact`, the options in _GCC_ONLY are left out. Also returns the
    generated directories whose files got no command."""
    graph = _Graph(aquery)
    by_file: Dict[str, List[str]] = {}
    # The first command of each target, PIC and not: what a generated directory's files borrow.
    compiles: Dict[Tuple[str, bool], List[str]] = {}
    # Per package, the commands of generated Python module init files (`<module>_init.cc`).
    inits: Dict[str, List[List[str]]] = {}
    for action in graph.actions:
        if action.get("mnemonic") != "CppCompile":
            continue
        args = [a for a in action["arguments"] if exact or a not in _GCC_ONLY]
        source = _source(args)
        if source is None:
            continue
        first = by_file.setdefault(source, args) is args
        label = graph.labels.get(action.get("targetId"), "")
        compiles.setdefault((label, "-fPIC" in args), args)
        if first and source.startswith("bazel-out/") and source.endswith("_init.cc"):
            inits.setdefault(label.split(":")[0], []).append(args)
    expanded, uncovered = _expanded_templates(graph, compiles, inits, directory)
    for source, args in expanded.items():
        by_file.setdefault(source, args)
    return [{"directory": directory, "file": f, "arguments": by_file[f]} for f in sorted(by_file)], uncovered


def _link_external(workspace: str, output_base: str) -> None:
    link = os.path.join(workspace, "external")
    target = os.path.join(output_base, "external")
    if os.path.islink(link):
        if os.readlink(link) != target:
            os.unlink(link)
            os.symlink(target, link)
    elif not os.path.exists(link):
        os.symlink(target, link)


def _write(path: str, entries: List[Dict[str, object]]) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(entries, fh, indent=1)
        fh.write("\n")
    os.replace(tmp, path)


def _parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="compile_commands", description=__doc__.split("\n\n")[0])
    parser.add_argument("targets", nargs="*", help="Bazel target patterns (default //...)")
    parser.add_argument("--bazel", default=os.environ.get("BAZEL", "bazel"), help="the Bazel command")
    parser.add_argument("--output", default="compile_commands.json", help="relative to the workspace root")
    parser.add_argument("--exact", action="store_true", help="keep the GCC-only options clang rejects")
    argv = list(argv)
    flags: List[str] = []
    if "--" in argv:
        flags = argv[argv.index("--") + 1 :]
        argv = argv[: argv.index("--")]
    ns = parser.parse_args(argv)
    ns.flags = flags
    ns.targets = ns.targets or ["//..."]
    return ns


def main(argv: Sequence[str]) -> int:
    ns = _parse(argv)
    workspace = os.environ.get("BUILD_WORKSPACE_DIRECTORY") or os.getcwd()
    bazel = shlex.split(ns.bazel)
    try:
        universe = _universe(ns.targets)
        query = f'mnemonic("CppCompile|CppCompileActionTemplate|{_CODEGEN_MNEMONIC}", {universe})'
        answer = json.loads(_bazel(bazel, workspace, ["aquery"] + ns.flags + ["--output=jsonproto", query]))
        generated = codegen_targets(answer)
        if generated:
            _bazel(bazel, workspace, ["build"] + ns.flags + generated)
        entries, uncovered = entries_of(answer, workspace, ns.exact)
        if not entries:
            raise Failure(f"no C++ compile action in {' '.join(ns.targets)}")
        output_base = _bazel(bazel, workspace, ["info"] + ns.flags + ["output_base"]).strip()
    except Failure as e:
        print(f"compile_commands: {e}", file=sys.stderr)
        return 1
    _link_external(workspace, output_base)
    out = os.path.join(workspace, ns.output)
    _write(out, entries)
    for tree in uncovered:
        print(f"compile_commands: no command for the files of {tree} (its library compiles no other file)")
    print(
        f"compile_commands: {len(entries)} files ({sum(1 for e in entries if str(e['file']).startswith('bazel-out/'))}"
        f" generated) in {out}; {len(generated)} codegen targets built"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
