#!/bin/bash
# mkjar.sh SRC_ROOT OUT.jar: head.jar with spindle-core's classes compiled from SRC_ROOT
set -e
src=$1; out=$2; tmp=$(mktemp -d)
javac --release 17 -nowarn -d $tmp $(find $src/spindle-core/src/main/java -name '*.java' ! -name module-info.java) 2>&1 | grep -v "^Note:" || true
cp /tmp/s46/head.jar $out
(cd $tmp && jar uf $out dev)
rm -rf $tmp
