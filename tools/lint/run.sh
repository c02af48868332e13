#!/usr/bin/env bash
# tools/lint/run.sh: gradgen's linters, pinned and installed by this script.
#
#   tools/lint/run.sh          check: report every finding, exit 1 if there is any
#   tools/lint/run.sh --fix    apply what the tools can fix (formatting, sorted imports, missing
#                              loads, ...), then check again and report what is left to do by hand
#
# The linters and what they read:
#   buildifier --lint=warn   BUILD, BUILD.bazel, WORKSPACE, *.bzl       (npm: tools/lint/package-lock.json)
#   ruff check, ruff format  *.py, configured by ruff.toml               (pip: tools/lint/requirements_lock.txt)
#   clang-format             *.h, *.cc, *.cpp, configured by .clang-format (Debian: clang-format, major 14)
# Mako templates (tools/codegen/templates/) are not C++ and are left alone.
#
# Installation: the pinned buildifier (npm ci, integrity-checked) and ruff (pip --require-hashes)
# go into $GRADGEN_LINT_CACHE (default ~/.cache/gradgen/lint), one directory per lock file
# content, so a changed pin installs anew and an unchanged one costs nothing. clang-format,
# npm and pip come from Debian: when one is missing this script installs it with apt-get (after
# one `apt-get update`) like ./bazelw does, or, without root or apt-get, prints the command to run
# and exits 2.
#
# Environment:
#   GRADGEN_LINT_CACHE=DIR   where the pinned tools are installed
#   LINT_PRETEND_MISSING="clang-format npm"
#                            treat these Debian packages as missing (to test this script)
set -euo pipefail

usage() {
  sed -n '2,6p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

fix=0
for arg in "$@"; do
  case $arg in
    --fix) fix=1 ;;
    -h | --help) usage; exit 0 ;;
    *) printf 'lint: unknown argument %s\n' "$arg" >&2; usage >&2; exit 2 ;;
  esac
done

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"

say() { printf 'lint: %s\n' "$*" >&2; }

cache=${GRADGEN_LINT_CACHE:-${HOME:-/root}/.cache/gradgen/lint}
clang_format_major=14  # Debian 12's clang-format; other majors format differently

# --- Debian packages -----------------------------------------------------------------------------

pretend_missing() { [[ " ${LINT_PRETEND_MISSING:-} " == *" $1 "* ]]; }

find_clang_format() {
  # Prints the path of a clang-format of major $clang_format_major, or nothing.
  pretend_missing clang-format && return 0
  local cf version
  for cf in "clang-format-$clang_format_major" clang-format; do
    cf=$(command -v "$cf" || true)
    [[ -n $cf ]] || continue
    version=$("$cf" --version 2>/dev/null || true)
    if [[ $version =~ version\ ${clang_format_major}\. ]]; then
      printf '%s\n' "$cf"
      return 0
    fi
  done
}

have_pip() {
  pretend_missing python3-pip && return 1
  [[ -x /usr/bin/python3 ]] && /usr/bin/python3 -m pip --version >/dev/null 2>&1
}

have_npm() {
  pretend_missing npm && return 1
  command -v npm >/dev/null 2>&1 && command -v node >/dev/null 2>&1
}

missing=()
check_packages() {
  missing=()
  [[ -n $(find_clang_format) ]] || missing+=("clang-format-$clang_format_major")
  have_npm || missing+=(npm)
  have_pip || missing+=(python3-pip)
}

install_packages() {
  local cmd_install=(apt-get install -y --no-install-recommends "${missing[@]}")
  if [[ $EUID -ne 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
    say "missing Debian packages: ${missing[*]}; install them, then run $0 again:"
    printf '  sudo apt-get update && sudo %s\n' "${cmd_install[*]}" >&2
    exit 2
  fi
  say "installing: ${missing[*]} (apt-get update first)"
  local apt_opts=(-o DPkg::Lock::Timeout=600 -q)
  export DEBIAN_FRONTEND=noninteractive
  apt-get "${apt_opts[@]}" update </dev/null >&2
  apt-get "${apt_opts[@]}" install -y --no-install-recommends "${missing[@]}" </dev/null >&2
  LINT_PRETEND_MISSING=
  check_packages
  if ((${#missing[@]})); then
    say "still missing after apt-get install: ${missing[*]}"
    exit 2
  fi
}

check_packages
if ((${#missing[@]})); then
  install_packages
fi
clang_format=$(find_clang_format)

# --- Pinned tools --------------------------------------------------------------------------------

# install_once DIR COMMAND...: runs COMMAND with $STAGE (a fresh directory) unless DIR exists,
# then moves $STAGE to DIR, so an interrupted install never leaves a half-made DIR behind.
install_once() {
  local dir=$1
  shift
  [[ -d $dir ]] && return 0
  mkdir -p "$(dirname "$dir")"
  STAGE=$(mktemp -d "$dir.tmp.XXXXXX")
  if ! "$@" >"$STAGE.log" 2>&1; then
    cat "$STAGE.log" >&2
    rm -rf "$STAGE" "$STAGE.log"
    say "installing $(basename "$dir") failed"
    exit 2
  fi
  rm -f "$STAGE.log"
  mv "$STAGE" "$dir"
}

lock_id() { cat "$@" | sha256sum | cut -c1-16; }  # of the content, not the path

install_ruff() {
  /usr/bin/python3 -m pip install --no-deps --require-hashes --only-binary=:all: --no-compile \
    --disable-pip-version-check --no-warn-script-location --target "$STAGE" \
    -r "$here/requirements_lock.txt"
}

install_buildifier() {
  cp "$here/package.json" "$here/package-lock.json" "$STAGE/"
  npm ci --prefix "$STAGE" --ignore-scripts --no-audit --no-fund
}

ruff_dir="$cache/ruff-$(lock_id "$here/requirements_lock.txt")"
buildifier_dir="$cache/buildifier-$(lock_id "$here/package.json" "$here/package-lock.json")"
PIP_NO_INPUT=1 PIP_ROOT_USER_ACTION=ignore install_once "$ruff_dir" install_ruff
install_once "$buildifier_dir" install_buildifier
ruff="$ruff_dir/bin/ruff"
buildifier="$buildifier_dir/node_modules/.bin/buildifier"

# --- Files ---------------------------------------------------------------------------------------

# Tracked files and new ones that are not ignored (in a git checkout), else every file below.
list_files() {
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -z --cached --others --exclude-standard -- "$@" | while IFS= read -r -d '' f; do
      [[ -f $f ]] && printf '%s\n' "$f"
    done
  else
    local names=() p
    for p in "$@"; do names+=(-o -name "${p##*/}"); done
    find . \( -name 'bazel-*' -o -name .git -o -name node_modules \) -prune -o -type f \
      \( "${names[@]:1}" \) -print | sed 's|^\./||' | sort
  fi
}

mapfile -t starlark_files < <(list_files 'BUILD' '*/BUILD' 'BUILD.bazel' '*/BUILD.bazel' \
  'WORKSPACE' '*/WORKSPACE' 'WORKSPACE.bazel' '*/WORKSPACE.bazel' '*.bzl')
# Not the templates (Mako, not C++) nor the golden copies of generated files (tests/golden/expected:
# compared byte for byte with what the codegen writes).
mapfile -t cpp_files < <(list_files '*.h' '*.cc' '*.cpp' '*.hpp' \
  | grep -v -e '^tools/codegen/templates/' -e '^tests/golden/expected/' || true)

# --- Fix -----------------------------------------------------------------------------------------

if ((fix)); then
  say "fixing: buildifier --lint=fix, ruff check --fix, ruff format, clang-format -i"
  "$buildifier" --mode=fix --lint=fix "${starlark_files[@]}"
  "$ruff" check --fix --quiet . >/dev/null || true  # what it cannot fix, the check below reports
  "$ruff" format --quiet .
  "$clang_format" -i --style=file "${cpp_files[@]}"
fi

# --- Check ---------------------------------------------------------------------------------------

failed=()
step() { # step NAME COMMAND...: runs a linter, records NAME when it reports findings.
  local name=$1 start=$SECONDS
  shift
  if "$@"; then
    say "$name: clean ($((SECONDS - start)) s)"
  else
    failed+=("$name")
    say "$name: findings above"
  fi
}

step "buildifier (${#starlark_files[@]} files)" \
  "$buildifier" --mode=check --lint=warn "${starlark_files[@]}"
step "ruff check" "$ruff" check --quiet --output-format=concise .
step "ruff format" "$ruff" format --check --output-format=concise .
step "clang-format (${#cpp_files[@]} files)" \
  "$clang_format" --dry-run --Werror --ferror-limit=3 --style=file "${cpp_files[@]}"

if ((${#failed[@]})); then
  say "FAILED: ${failed[*]}"
  if ((fix)); then
    say "what is left needs a hand fix (or a narrow, justified ignore in ruff.toml / a"
    say "'# buildifier: disable=<warning>' comment)."
  else
    say "tools/lint/run.sh --fix applies formatting and the automatic fixes."
  fi
  exit 1
fi
say "all clean"
