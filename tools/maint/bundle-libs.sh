#!/usr/bin/env bash
# bundle-libs.sh BINARY DIR: copy the shared libraries BINARY loads (as ldd finds
# them here) into DIR, so that a GPU machine without Criterion runs it with
# LD_LIBRARY_PATH=DIR. Left out, because the target must provide its own: the C
# library and its parts, the C++ and GCC runtimes, the NVIDIA driver, and NCCL
# (the GPU machines have it, and it must match their driver).
set -euo pipefail
[[ $# -eq 2 && -x $1 ]] || { echo "usage: bundle-libs.sh BINARY DIR" >&2; exit 2; }
mkdir -p "$2"
system='^(linux-vdso|ld-linux.*|libc|libm|libmvec|libdl|libpthread|librt|libresolv|libutil|libanl|libnss_.*|libstdc\+\+|libgcc_s|libcuda|libnvidia-.*|libnccl)\.so'
status=0
while read -r name arrow path _; do
    [[ $arrow == "=>" ]] || continue
    if [[ $path == not ]]; then
        echo "bundle-libs: $name not found here" >&2
        status=2
    elif [[ ! $name =~ $system ]]; then
        cp -L "$path" "$2/$name"
    fi
done < <(ldd "$1")
exit $status
