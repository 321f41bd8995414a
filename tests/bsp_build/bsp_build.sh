#!/bin/sh
# bsp_build.sh STEP -- BSPlib programs built the ways a user builds them
# (tests/bsp_build/CMakeLists.txt registers one ctest per step):
#   bspcc            the build tree's bspcc: one line, -c then link, -E, -S,
#                    -show; examples/bsp_hello.c runs at 2 and 3 processes
#   install          cmake --install into a fresh prefix (the fixture)
#   installed_bspcc  the prefix's bspcc and orma-run
#   find_package     a CMake project with find_package(orma): orma::bsp,
#                    orma::orma (tests/bsp_build/consumer)
#   pkg_config       pkg-config orma-bsp and orma, installed and in the
#                    build tree (exit 77 without pkg-config)
#   uninstall        removes the prefix
# Every program runs without LD_LIBRARY_PATH: it finds orma by its rpath.
# Environment: BSPB_SRC, BSPB_BUILD, BSPB_PREFIX, BSPB_BINDIR and
# BSPB_LIBDIR (relative to the prefix), BSPB_CC, BSPB_CMAKE.
set -eu
unset LD_LIBRARY_PATH
step=$1
examples=$BSPB_SRC/examples
bin=$BSPB_PREFIX/$BSPB_BINDIR
lib=$BSPB_PREFIX/$BSPB_LIBDIR

fail() {
    echo "bsp_build.sh $step: FAILED: $*" >&2
    exit 1
}
run() {
    echo "+ $*"
    "$@" || fail "$* (exit $?)"
}

work=$(mktemp -d "${TMPDIR:-/tmp}/orma-bsp-build.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

case $step in
bspcc)
    bspcc=$BSPB_BUILD/bin/bspcc
    run "$bspcc" -O2 -o bsp_hello "$examples/bsp_hello.c"
    run "$bspcc" -O2 -c -o bsp_hello.o "$examples/bsp_hello.c"
    run "$bspcc" -o bsp_hello_linked bsp_hello.o
    # <bsp.h> as well as "bsp.h", and orma.h; -E and -S do not link.
    printf '#include <bsp.h>\n#include <orma.h>\nint main(void) { return bsp_nprocs() > 0 ? 0 : 1; }\n' >angle.c
    run "$bspcc" -E -o angle.i angle.c
    grep -q bsp_nprocs angle.i || fail "-E: no bsp.h in angle.i"
    run "$bspcc" -S -o angle.s angle.c
    [ -s angle.s ] || fail "-S wrote no angle.s"
    run "$bspcc" -o angle angle.c
    # -show prints the command (its words quoted where they need it).
    show=$("$bspcc" -show -O2 -o x 'a b.c')
    echo "$show"
    case $show in
    *" 'a b.c' "*" -lorma-bsp -lorma") ;;
    *) fail "bspcc -show: not the expected command" ;;
    esac
    show=$("$bspcc" -show -c x.c)
    echo "$show"
    case $show in
    *" -lorma"* | *-rpath*) fail "bspcc -show -c: link flags in a compile-only command" ;;
    esac
    run "$BSPB_BUILD/bin/orma-run" -n 2 ./bsp_hello
    run "$BSPB_BUILD/bin/orma-run" -n 3 ./bsp_hello
    run "$BSPB_BUILD/bin/orma-run" -n 2 ./bsp_hello_linked
    ;;

install)
    rm -rf "$BSPB_PREFIX"
    echo "+ $BSPB_CMAKE --install $BSPB_BUILD --prefix $BSPB_PREFIX"
    "$BSPB_CMAKE" --install "$BSPB_BUILD" --prefix "$BSPB_PREFIX" >install.log 2>&1 || {
        cat install.log
        fail "cmake --install"
    }
    for f in "$bin/bspcc" "$bin/orma-run" "$bin/orma-info" "$BSPB_PREFIX/include/orma.h" \
        "$BSPB_PREFIX/include/orma/bsp.h" "$lib/liborma.so" "$lib/liborma-bsp.so" \
        "$lib/pkgconfig/orma.pc" "$lib/pkgconfig/orma-bsp.pc" "$lib/cmake/orma/ormaConfig.cmake"; do
        [ -e "$f" ] || fail "not installed: $f"
    done
    [ -x "$bin/bspcc" ] || fail "$bin/bspcc is not executable"
    # liborma opens its mpirun modules from its own directory.
    for m in "$BSPB_BUILD"/lib/liborma-mpirun-*.so; do
        [ -e "$m" ] || continue
        [ -e "$lib/${m##*/}" ] || fail "not installed beside liborma: ${m##*/}"
    done
    # The installed files name the prefix, never the build tree.
    for f in "$bin/bspcc" "$lib/pkgconfig/orma.pc" "$lib/pkgconfig/orma-bsp.pc" \
        "$lib/cmake/orma/ormaConfig.cmake"; do
        if grep -n -e "$BSPB_BUILD/lib" -e "$BSPB_BUILD/bin" -e "$BSPB_SRC/include" "$f"; then
            fail "$f names the build or source tree"
        fi
    done
    grep -q "^libdir=\${prefix}/$BSPB_LIBDIR\$" "$lib/pkgconfig/orma-bsp.pc" ||
        fail "orma-bsp.pc: libdir is not \${prefix}/$BSPB_LIBDIR"
    grep -q "^prefix=$BSPB_PREFIX\$" "$lib/pkgconfig/orma-bsp.pc" ||
        fail "orma-bsp.pc: prefix is not $BSPB_PREFIX"
    "$bin/orma-info" >/dev/null || fail "the installed orma-info does not run"
    echo "installed into $BSPB_PREFIX"
    ;;

installed_bspcc)
    run "$bin/bspcc" -O2 -o bsp_hello "$examples/bsp_hello.c"
    run "$bin/orma-run" -n 2 ./bsp_hello
    run "$bin/orma-run" -n 3 ./bsp_hello
    ;;

find_package)
    echo "+ $BSPB_CMAKE -S $BSPB_SRC/tests/bsp_build/consumer -B consumer ..."
    "$BSPB_CMAKE" -S "$BSPB_SRC/tests/bsp_build/consumer" -B consumer -DCMAKE_PREFIX_PATH="$BSPB_PREFIX" \
        -DCMAKE_C_COMPILER="$BSPB_CC" -DCMAKE_BUILD_TYPE=Release -DORMA_EXAMPLES="$examples" \
        >configure.log 2>&1 || {
        cat configure.log
        fail "configuring the find_package(orma) project"
    }
    run "$BSPB_CMAKE" --build consumer
    orma_run=$(cat consumer/orma-run-path)
    [ "$orma_run" = "$bin/orma-run" ] || fail "orma_RUN is $orma_run, not $bin/orma-run"
    run "$orma_run" -n 2 consumer/bsp_hello
    run "$orma_run" -n 3 consumer/bsp_hello
    run "$orma_run" -n 2 consumer/ring
    ;;

pkg_config)
    if ! command -v pkg-config >/dev/null; then
        echo "pkg-config is not installed: SKIPPED (apt-get install pkg-config)"
        exit 77
    fi
    for where in installed build; do
        if [ $where = installed ]; then
            PKG_CONFIG_PATH=$lib/pkgconfig
            orma_run=$bin/orma-run
        else
            PKG_CONFIG_PATH=$BSPB_BUILD/lib/pkgconfig
            orma_run=$BSPB_BUILD/bin/orma-run
        fi
        export PKG_CONFIG_PATH
        echo "== pkg-config, $where: PKG_CONFIG_PATH=$PKG_CONFIG_PATH"
        libdir=$(pkg-config --variable=libdir orma-bsp) || fail "pkg-config orma-bsp"
        bsp_flags=$(pkg-config --cflags --libs orma-bsp) || fail "pkg-config orma-bsp"
        orma_flags=$(pkg-config --cflags --libs orma) || fail "pkg-config orma"
        mkdir $where
        # shellcheck disable=SC2086 # the flags are words
        run "$BSPB_CC" -O2 -o $where/bsp_hello "$examples/bsp_hello.c" $bsp_flags -Wl,-rpath,"$libdir"
        # shellcheck disable=SC2086
        run "$BSPB_CC" -O2 -o $where/ring "$examples/ring.c" $orma_flags -Wl,-rpath,"$libdir"
        run "$orma_run" -n 2 $where/bsp_hello
        run "$orma_run" -n 3 $where/bsp_hello
        run "$orma_run" -n 2 $where/ring
    done
    # A linker that drops what the program does not call (--as-needed)
    # leaves liborma out: liborma-bsp finds it beside itself.
    PKG_CONFIG_PATH=$lib/pkgconfig
    # shellcheck disable=SC2086
    run "$BSPB_CC" -O2 -o as_needed -Wl,--as-needed "$examples/bsp_hello.c" \
        $(pkg-config --cflags --libs orma-bsp) -Wl,-rpath,"$lib"
    run "$bin/orma-run" -n 2 ./as_needed
    ;;

uninstall)
    run rm -rf "$BSPB_PREFIX"
    ;;

*)
    fail "no such step"
    ;;
esac
echo "bsp_build.sh $step: passed"
