#!/bin/sh
# `cmake --install` of the build folder (cmake/install.cmake), in a
# temporary prefix and staged with DESTDIR (removed with the same DESTDIR,
# never touching the system's files): the files are where
# docs/install.md says, the installed mosaic.icd names the installed
# library, the installed command and the ICD loader use the installed
# library (not the build folder's), and the uninstall script removes it all.
#   install_check.sh BUILD_DIR UNINSTALL_SCRIPT LIBDIR OWNED
# (LIBDIR: CMAKE_INSTALL_LIBDIR; OWNED: the folders Mosaic owns, "|" between)
build=$1 uninstall=$2 libdir=$3 owned=$4
tmp=$(mktemp -d) || exit 1
manifest="$build/install_manifest.txt"
# cmake --install rewrites the build folder's manifest: keep the user's
[ -f "$manifest" ] && cp -p "$manifest" "$tmp/user-manifest"
restore() {
    if [ -f "$tmp/user-manifest" ]; then cp -p "$tmp/user-manifest" "$manifest"; else rm -f "$manifest"; fi
    rm -rf "$tmp"
}
trap restore EXIT
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=1; fi; }

# ---- into a prefix of its own: the ICD file in PREFIX/etc/OpenCL/vendors ----
prefix="$tmp/prefix"
cmake --install "$build" --prefix "$prefix" >"$tmp/log" 2>&1 || { cat "$tmp/log"; echo "FAIL: cmake --install"; exit 1; }
cp "$manifest" "$tmp/prefix-manifest"
(cd "$prefix" && find . \( -type f -o -type l \) | LC_ALL=C sort) >"$tmp/files"
cat "$tmp/files"
for f in "bin/mosaic" "$libdir/libmosaic.so.1" "$libdir/libmosaic.so" "$libdir/libmosaic-fork-server.so" \
         "libexec/mosaic/bench_runner" "libexec/mosaic/examples/image_blur_resize" \
         "share/doc/mosaic/README.md" "share/doc/mosaic/docs/mosaic-command.md" \
         "share/doc/mosaic/docs/install.md" "etc/OpenCL/vendors/mosaic.icd"; do
    check '[ -e "$prefix/$f" ]' "$f installed"
done
# remote devices, in a build that has them (CMake found MPI)
if [ -e "$build/mosaic-server" ]; then
    for f in "$libdir/mosaic-server" "$libdir/libmosaic-remote.so"; do
        check '[ -e "$prefix/$f" ]' "$f installed"
    done
fi
check '[ "$(readlink "$prefix/$libdir/libmosaic.so")" = libmosaic.so.1 ]' "libmosaic.so -> libmosaic.so.1"
check 'readelf -d "$prefix/$libdir/libmosaic.so.1" | grep -q "Library soname: \[libmosaic.so.1\]"' "SONAME libmosaic.so.1"
icd=$(cat "$prefix/etc/OpenCL/vendors/mosaic.icd")
echo "mosaic.icd: $icd"
check '[ "$icd" = "$prefix/$libdir/libmosaic.so.1" ]' "mosaic.icd names the installed library by its absolute path"
check '[ "$(grep -c . "$tmp/prefix-manifest")" = "$(grep -c . "$tmp/files")" ]' "the manifest lists every file installed"

# the installed command describes the installed library, with its fork server
info=$(env -u LD_LIBRARY_PATH MOSAIC_CACHE=0 "$prefix/bin/mosaic" info)
echo "$info" | sed -n '1,4p'
check 'echo "$info" | grep -Eq "^  Library +$prefix/$libdir/libmosaic.so.1$"' "mosaic info: the installed library"
check 'echo "$info" | grep -Eq "^  Fork server library +$prefix/$libdir/libmosaic-fork-server.so$"' \
      "mosaic info: the installed fork server library"
# the loader opens what the installed mosaic.icd names
if command -v clinfo >/dev/null; then
    list=$(OCL_ICD_VENDORS="$prefix/etc/OpenCL/vendors/mosaic.icd" clinfo -l 2>&1)
    echo "$list"
    check 'echo "$list" | grep -q "Platform #0: Mosaic"' "clinfo -l lists the installed Mosaic"
fi

# ---- the uninstall script removes every file and Mosaic's own folders ----
cmake -DMANIFEST="$tmp/prefix-manifest" "-DOWNED=$owned" -P "$uninstall" >"$tmp/log" 2>&1 ||
    { cat "$tmp/log"; echo "FAIL: uninstall"; fail=1; }
left=$(cd "$prefix" && find . \( -type f -o -type l \))
check '[ -z "$left" ]' "uninstall leaves no file: $left"
check '[ ! -e "$prefix/share/doc/mosaic" ] && [ ! -e "$prefix/libexec/mosaic" ]' "uninstall removes Mosaic's folders"
check '[ -d "$prefix/bin" ] && [ -d "$prefix/etc/OpenCL/vendors" ]' "uninstall leaves shared folders"

# ---- staged (DESTDIR) for the prefix /usr: the ICD file in /etc, naming /usr ----
vendors_before=$(ls -l --time-style=full-iso /etc/OpenCL/vendors 2>&1)
DESTDIR="$tmp/stage" cmake --install "$build" --prefix /usr >"$tmp/log" 2>&1 ||
    { cat "$tmp/log"; echo "FAIL: DESTDIR=... cmake --install"; exit 1; }
icd=$(cat "$tmp/stage/etc/OpenCL/vendors/mosaic.icd" 2>/dev/null)
echo "staged mosaic.icd: $icd"
check '[ "$icd" = "/usr/$libdir/libmosaic.so.1" ]' "the staged mosaic.icd names /usr/$libdir/libmosaic.so.1"
check '[ -f "$tmp/stage$icd" ]' "the library it names is staged"
check 'grep -qx "/etc/OpenCL/vendors/mosaic.icd" "$manifest"' "the manifest has the installed paths (without DESTDIR)"
check '[ "$(ls -l --time-style=full-iso /etc/OpenCL/vendors 2>&1)" = "$vendors_before" ]' \
      "nothing written in /etc/OpenCL/vendors itself"
DESTDIR="$tmp/stage" cmake -DMANIFEST="$manifest" "-DOWNED=$owned" -P "$uninstall" >"$tmp/log" 2>&1 ||
    { cat "$tmp/log"; echo "FAIL: uninstall with DESTDIR"; fail=1; }
left=$(cd "$tmp/stage" && find . \( -type f -o -type l \))
check '[ -z "$left" ]' "uninstall with the same DESTDIR leaves no staged file: $left"
[ $fail = 0 ] && echo PASS
exit $fail
