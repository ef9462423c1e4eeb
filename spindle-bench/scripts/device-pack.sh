#!/usr/bin/env bash
# Packs what a lent measurement machine needs into one folder, small enough to be carried there
# (a call carries at most 64 MiB, and the machine has no JDK and no network):
#
#   spindle-bench/scripts/device-pack.sh DIR COMMIT[=NAME]...
#
# For each COMMIT it builds the CLI jar of that commit in a temporary git worktree and writes
# DIR/NAME.jar (NAME defaults to the commit's short hash) without the Hazelcast, Pekko and Scala
# classes (the cluster and actor suites need them; the fork/join, async and echo suites do
# not). It also writes DIR/j17.tar.xz and DIR/j25.tar.xz: jlink images of the JDK 17 on the PATH
# and of the JDK in JDK25_HOME (default /usr/lib/jvm/temurin-25-jdk-amd64), with the modules
# the jar needs, stripped and xz-packed (about 17 and 21 MB). Existing images are kept; delete
# them to rebuild. A COMMIT may also be "WORKTREE" for the working tree as it is (built in
# place), or a path to a .patch file applied on top of HEAD (NAME then required).
#
# Run the measurement script beside them (docs/measurements/*/run*.sh unpack the images into
# /tmp); name DIR in the run tool's `carry` list, and keep DIR out of git (.git/info/exclude).
# The total size is printed at the end: keep it under 64 MiB.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
dir="${1:?usage: device-pack.sh DIR COMMIT[=NAME]...}"
shift
(( $# > 0 )) || { echo "device-pack.sh: name at least one commit" >&2; exit 2; }
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
j25_home="${JDK25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
mvn_build=(mvn -B -ntp -q -o -pl spindle-cli -am package -DskipTests -Dmaven.javadoc.skip
  -Dmaven.source.skip -Djcstress.skip -Dspin.skip)

strip_jar() { # in out
  cp "$1" "$2"
  zip -q -d "$2" 'com/hazelcast/*' 'org/apache/pekko/*' 'scala/*' >/dev/null 2>&1 || true
}

build_at() { # commit-or-patch name
  local what="$1" name="$2" wt
  if [[ "$what" == WORKTREE ]]; then
    (cd "$root" && "${mvn_build[@]}")
    strip_jar "$root/spindle-cli/target/spindle.jar" "$dir/$name.jar"
    return
  fi
  wt="$(mktemp -d)"
  if [[ -f "$what" ]]; then
    git -C "$root" worktree add -q --detach "$wt" HEAD
    git -C "$wt" apply "$(cd "$(dirname "$what")" && pwd)/$(basename "$what")"
  else
    git -C "$root" worktree add -q --detach "$wt" "$what"
  fi
  (cd "$wt" && "${mvn_build[@]}")
  strip_jar "$wt/spindle-cli/target/spindle.jar" "$dir/$name.jar"
  git -C "$root" worktree remove --force "$wt"
}

for spec in "$@"; do
  what="${spec%%=*}"
  if [[ "$spec" == *=* ]]; then
    name="${spec#*=}"
  elif [[ "$what" == WORKTREE || -f "$what" ]]; then
    echo "device-pack.sh: $what needs a name: $what=NAME" >&2; exit 2
  else
    name="$(git -C "$root" rev-parse --short "$what")"
  fi
  echo "building $what as $name.jar"
  build_at "$what" "$name"
done

first_jar="$(ls "$dir"/*.jar | head -1)"
modules="$(jdeps --multi-release 17 --ignore-missing-deps --print-module-deps "$first_jar" 2>/dev/null || true)"
modules="${modules:-java.base}"
extra=jdk.management,jdk.management.jfr,jdk.net,java.management,java.xml,jdk.crypto.ec,jdk.unsupported
image() { # java_home name
  local home="$1" name="$2" tmp
  [[ -f "$dir/$name.tar.xz" ]] && return
  tmp="$(mktemp -d)"
  "$home/bin/jlink" --add-modules "$modules,$extra" --strip-debug --no-header-files --no-man-pages \
    --output "$tmp/$name"
  strip --strip-unneeded "$tmp/$name/lib/server/libjvm.so" 2>/dev/null || true
  tar cf - -C "$tmp" "$name" | xz -9 -T0 > "$dir/$name.tar.xz"
  rm -rf "$tmp"
}
j17_home="$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")"
echo "jlink images (modules: $modules,$extra)"
image "$j17_home" j17
image "$j25_home" j25
du -sh "$dir"/* | sort -k2
echo "total: $(du -sm "$dir" | cut -f1) MiB (the carry limit is 64 MiB for all carried paths)"
