#!/bin/bash
# layers.sh SRCDIR LAYER=OBJ[:OBJ...] ...
# orma's layering rule, checked on what the compiler produced and on the
# includes: a layer references only symbols defined in itself or in the
# layers below it (nm on each layer's objects), and no file of src/ includes
# a header of a layer above its own.  include/orma.h, the public header, is
# the vocabulary every layer shares (types, constants); calling one of its
# functions from below the api layer is an upward reference, caught by nm.
# Faces: bsp and caf stand on the public API alone; liborma-mpi reaches the core
# through one internal header (src/api/api_face.h).
set -u
src=$1
shift

# What each layer may use besides itself (the rule of DEVELOPERS.md:
# util <- boot/shm/dtype <- net <- xport (the transports) <- rma <- api <- faces).
declare -A below=(
  [util]=""
  [shm]="util"
  [dtype]="util"
  [boot]="util shm"
  [net]="util shm boot dtype"
  [xport]="util shm boot dtype net"
  [rma]="util shm boot dtype net xport"
  [api]="util shm boot dtype net xport rma"
  [mpi]="util shm boot dtype net xport rma api"
  [bsp]="util shm boot dtype net xport rma api"
  [caf]="util shm boot dtype net xport rma api"
)
# Faces that stand on the public API alone: of the layers below they may use
# only the public orma_* symbols (wherever those are defined).
declare -A public_only=([bsp]=1 [caf]=1)
# Faces on the internal core: they include its headers through one only
# (and the net transport's wire, built with them per MPI).
declare -A face_via=([mpi]=api_face.h)

fail=0
defs=$(mktemp)
trap 'rm -f "$defs"' EXIT

# Defined global symbols: "symbol layer".
declare -A objs=()
for arg in "$@"; do
  layer=${arg%%=*}
  [ -n "${below[$layer]+x}" ] || { echo "layers: unknown layer $layer" >&2; exit 2; }
  objs[$layer]=${arg#*=}
  IFS=: read -r -a files <<<"${objs[$layer]}"
  [ ${#files[@]} -gt 0 ] || { echo "layers: no objects for $layer" >&2; exit 2; }
  nm --defined-only -g "${files[@]}" 2>/dev/null | awk -v l="$layer" 'NF == 3 { print $3, l }' >>"$defs"
done
sort -u -o "$defs" "$defs"

for layer in "${!objs[@]}"; do
  IFS=: read -r -a files <<<"${objs[$layer]}"
  for o in "${files[@]}"; do
    nm -u "$o" | awk '{ print $NF }' | sort -u | join - "$defs" | while read -r sym owner; do
      [ "$owner" = "$layer" ] && continue
      if [ -n "${public_only[$layer]+x}" ] && [ "${sym#orma_}" = "$sym" ]; then
        echo "layers: $layer/$(basename "$o" .o) references $sym of $owner, which is not public API"
        continue
      fi
      case " ${below[$layer]} " in *" $owner "*) continue ;; esac
      echo "layers: $layer/$(basename "$o" .o) references $sym, defined in $owner (above or beside it)"
    done
  done
done >"$defs.out"

# Includes: the layer of a header is the folder of src/ that holds it.
for dir in "$src"/src/*/; do
  layer=$(basename "$dir")
  [ -n "${below[$layer]+x}" ] || continue
  grep -Ho '^#include "[^"]*"' "$dir"*.[ch] 2>/dev/null | while IFS=: read -r file inc; do
    h=${inc#\#include \"}
    h=${h%\"}
    owner=$(ls "$src"/src/*/"$h" 2>/dev/null | head -1)
    [ -n "$owner" ] || continue # generated or system-style header
    owner=$(basename "$(dirname "$owner")")
    [ "$owner" = "$layer" ] && continue
    if [ -n "${face_via[$layer]+x}" ] && [ "$h" != "${face_via[$layer]}" ] && [ "$owner" != net ]; then
      echo "layers: ${file#$src/} includes $h of $owner: $layer reaches the core through ${face_via[$layer]}"
      continue
    fi
    if [ -n "${public_only[$layer]+x}" ]; then
      echo "layers: ${file#$src/} includes $h of $owner: $layer stands on the public API (orma.h) alone"
      continue
    fi
    case " ${below[$layer]} " in *" $owner "*) continue ;; esac
    echo "layers: ${file#$src/} includes $h of $owner (above or beside it)"
  done
done >>"$defs.out"

if [ -s "$defs.out" ]; then
  cat "$defs.out"
  rm -f "$defs.out"
  exit 1
fi
rm -f "$defs.out"
echo "layers: $(wc -l <"$defs") symbols of ${#objs[@]} layers, no reference upward"
