#!/usr/bin/env bash
# Renders the example's backward graph: writes graph.dot and graph.svg (or the paths given) in
# the directory `bazel run` was started from.
#
#   ./bazelw run //examples/graph:render [-- OUT.svg]
#
# Needs Graphviz's `dot` (Debian's graphviz package): ./bazelw installs it when it is asked to
# run this target, and only then; no build or test needs it. This script installs nothing.
set -euo pipefail

if ! command -v dot >/dev/null 2>&1; then
  echo "render: graphviz's dot is not installed; run this through ./bazelw run //examples/graph:render," >&2
  echo "render: which installs Debian's graphviz package (or: apt-get install graphviz)" >&2
  exit 2
fi

# `bazel run` starts in the runfiles tree; the outputs go where the user ran it.
graph=$PWD/examples/graph/graph
[[ -x $graph ]] || graph=${RUNFILES_DIR:-$0.runfiles}/gradgen/examples/graph/graph
out_svg=${1:-graph.svg}
out_dot=${out_svg%.svg}.dot
cd "${BUILD_WORKING_DIRECTORY:-.}"
"$graph" >"$out_dot"
dot -Tsvg "$out_dot" -o "$out_svg"
echo "render: wrote $out_dot and $out_svg" >&2
