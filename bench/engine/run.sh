#!/usr/bin/env bash
# Autograd engine benchmarks (issue 4): gradgen beside libtorch in one run, with a table of
# ratios and targets. Measures and prints; exits 0 whatever the figures. See bench/README.md.
#
#   bench/engine/run.sh [--torch_python=/tmp/torch213/bin/python] [--rounds=3] [--profile]
#   ./bazelw run //bench/engine:run -- [same options]
#   bench/engine/run.sh --help
ws="${BUILD_WORKSPACE_DIRECTORY:-}"
if [[ -z $ws ]]; then
  ws="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
fi
python3 "$ws/bench/engine/run.py" --workspace="$ws" "$@"
exit 0
