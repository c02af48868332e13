#!/usr/bin/env bash
# worker.sh: Bazel's own Remote Execution API worker (src/tools/remote of Bazel's source, the
# executor Bazel tests its remote execution against) on a loopback port, for --config=remote
# (docs/remote.md).
#
#   tools/remote/worker.sh start [--port N] [--dir DIR] [--hide PATH]...   prints the port
#   tools/remote/worker.sh stop [--dir DIR]                                 stops that worker
#
# start gets Debian's bazel-bootstrap-source (the sources; with apt-get, as ./bazelw installs what
# the build needs, saying so on stderr), compiles the worker once with javac against the Bazel
# server's own classes (/usr/share/bazel/A-server.jar) and grpc-netty into
# $GRADGEN_REMOTE_WORKER_CACHE/<hash> (default ~/.cache/gradgen/remote-worker; <hash> of the
# sources, the jars and javac), and starts it on 127.0.0.1:N (a free port unless --port) with
# --sandboxing --sandboxing_block_network --sandboxing_tmpfs_dir=/tmp: every action runs in
# Debian's linux-sandbox (/usr/share/bazel/linux-sandbox, the worker's bundled resource
# main/tools/linux-sandbox), without network, with an empty /tmp.
#
# DIR (default $GRADGEN_REMOTE_WORKER_CACHE/run) holds the worker's pid file, its log
# (worker.log), its CAS (cas/) and the actions' exec roots (work/). One worker per DIR; stop kills
# only the process whose pid start wrote there (and only if it is still that worker).
#
# --hide PATH (repeatable) starts the worker in a mount namespace of its own (unshare -m) in which
# each PATH is an empty tmpfs: an action that reads a file it did not declare there (the
# checkout, the client's workspace or output base) fails. DIR must not be under a hidden PATH.
set -euo pipefail

say() { printf 'worker.sh: %s\n' "$*" >&2; }
die() {
  say "$*"
  exit 1
}

readonly SOURCES=/usr/src/bazel-bootstrap/src/tools/remote/src/main/java
readonly SERVER_JAR=/usr/share/bazel/A-server.jar
readonly NETTY_JAR=/usr/share/java/grpc-netty.jar
readonly SANDBOX=/usr/share/bazel/linux-sandbox
readonly MAIN=com.google.devtools.build.remote.worker.RemoteWorker
[[ -n ${GRADGEN_REMOTE_WORKER_CACHE:-} || -n ${HOME:-} ]] || die "neither GRADGEN_REMOTE_WORKER_CACHE nor HOME is set"
cache_root=${GRADGEN_REMOTE_WORKER_CACHE:-$HOME/.cache/gradgen/remote-worker}

ensure_sources() {
  [[ -d $SOURCES ]] && return 0
  local cmd=(apt-get install -y --no-install-recommends bazel-bootstrap-source)
  say "missing bazel-bootstrap-source: the worker is compiled from $SOURCES"
  if [[ $EUID -ne 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
    say "cannot install (not root or no apt-get); run: sudo apt-get update && sudo ${cmd[*]}"
    exit 2
  fi
  say "installing: bazel-bootstrap-source (apt-get update first)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=600 -q update </dev/null >&2
  apt-get -o DPkg::Lock::Timeout=600 -q "${cmd[@]:1}" </dev/null >&2
  [[ -d $SOURCES ]] || die "bazel-bootstrap-source installed, but $SOURCES is missing"
}

# Prints the directory of the compiled worker (classes/ and the resource main/tools/linux-sandbox).
compiled_worker() {
  local f
  for f in "$SERVER_JAR" "$NETTY_JAR" "$SANDBOX"; do
    [[ -e $f ]] || die "missing $f (Debian's bazel-bootstrap and libgrpc-java provide it)"
  done
  command -v javac >/dev/null 2>&1 || die "no javac on PATH (Debian's default-jdk-headless)"
  local hash dir tmp
  hash=$( (
    find "$SOURCES" -name '*.java' -print0 | sort -z | xargs -0 sha256sum
    sha256sum "$SERVER_JAR" "$NETTY_JAR" "$SANDBOX"
    javac -version 2>&1
  ) | sha256sum | cut -c1-16)
  dir=$cache_root/$hash
  if [[ ! -e $dir/classes/${MAIN//.//}.class ]]; then
    say "compiling the worker ($SOURCES) into $dir"
    mkdir -p "$cache_root"
    tmp=$(mktemp -d "$cache_root/.compile.XXXXXX")
    find "$SOURCES" -name '*.java' | sort >"$tmp/sources"
    mkdir -p "$tmp/classes" "$tmp/resources/main/tools"
    javac -nowarn -encoding UTF-8 -d "$tmp/classes" -cp "$SERVER_JAR:$NETTY_JAR" "@$tmp/sources" 2>"$tmp/javac.log" ||
      die "javac failed: $(cat "$tmp/javac.log")"
    cp "$SANDBOX" "$tmp/resources/main/tools/linux-sandbox"
    rm -rf "$dir"
    mv "$tmp" "$dir"
  fi
  printf '%s\n' "$dir"
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

listening() { # listening PORT: true when something accepts connections on 127.0.0.1:PORT.
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

running_pid() { # running_pid DIR: prints the pid of DIR's worker if it is still running.
  local pid
  [[ -f $1/pid ]] || return 1
  pid=$(<"$1/pid")
  [[ -r /proc/$pid/cmdline ]] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q "$MAIN" && printf '%s\n' "$pid"
}

start() {
  local port="" dir=$cache_root/run hide=()
  while (($#)); do
    case $1 in
      --port) port=$2; shift 2 ;;
      --dir) dir=$2; shift 2 ;;
      --hide) hide+=("$2"); shift 2 ;;
      *) die "start: unknown argument $1 (see the header of $0)" ;;
    esac
  done
  ensure_sources
  local worker pid
  worker=$(compiled_worker)
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd -P)
  if pid=$(running_pid "$dir"); then
    die "a worker is already running from $dir (pid $pid, port $(<"$dir/port")); stop it first"
  fi
  for h in "${hide[@]}"; do
    [[ $dir/ == "$(realpath -m "$h")"/* ]] && die "--dir $dir is under --hide $h"
  done
  rm -rf "$dir/work" "$dir/cas"
  mkdir -p "$dir/work" "$dir/cas"
  [[ -n $port ]] || port=$(free_port)
  local cmd=(java -cp "$worker/classes:$worker/resources:$SERVER_JAR:$NETTY_JAR" "$MAIN"
    "--listen_port=$port" "--work_path=$dir/work" "--cas_path=$dir/cas"
    --sandboxing --sandboxing_block_network --sandboxing_tmpfs_dir=/tmp)
  if ((${#hide[@]})); then
    # unshare execs sh, sh execs java: $! is the worker's pid.
    cmd=(unshare -m --propagation private -- /bin/sh -c
      'for d in "$@"; do case $d in --) shift; break ;; esac; mount -t tmpfs -o size=64m tmpfs "$d" || exit 1; shift; done; exec "$@"'
      sh "${hide[@]}" -- "${cmd[@]}")
  fi
  nohup "${cmd[@]}" </dev/null >"$dir/worker.log" 2>&1 &
  pid=$!
  printf '%s\n' "$pid" >"$dir/pid"
  printf '%s\n' "$port" >"$dir/port"
  local i
  for ((i = 0; i < 240; i++)); do
    listening "$port" && break
    if ! kill -0 "$pid" 2>/dev/null; then
      rm -f "$dir/pid"
      die "the worker exited before listening on $port: $(tail -n 20 "$dir/worker.log")"
    fi
    sleep 0.25
  done
  listening "$port" || {
    stop --dir "$dir"
    die "the worker did not listen on $port within 60 s (log: $dir/worker.log)"
  }
  say "worker pid $pid on grpc://127.0.0.1:$port (log $dir/worker.log)${hide:+, hiding ${hide[*]}}"
  printf '%s\n' "$port"
}

stop() {
  local dir=$cache_root/run pid i
  while (($#)); do
    case $1 in
      --dir) dir=$2; shift 2 ;;
      *) die "stop: unknown argument $1" ;;
    esac
  done
  if ! pid=$(running_pid "$dir"); then
    say "no worker running from $dir"
    rm -f "$dir/pid"
    return 0
  fi
  kill -TERM "$pid"
  for ((i = 0; i < 100; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
  rm -f "$dir/pid"
  say "stopped worker pid $pid"
}

case ${1:-} in
  start) start "${@:2}" ;;
  stop) stop "${@:2}" ;;
  *) die "usage: $0 start [--port N] [--dir DIR] [--hide PATH]... | stop [--dir DIR]" ;;
esac
