#!/usr/bin/env bash
# deps.sh NVCC: install what the kit needs besides CUDA (Criterion, gnuplot, pandoc
# for `make site`) and check that nvcc is there. The site's browser test also needs
# Chromium and Python 3: installed unless SITE_TEST=0. Uses apt as root or with
# sudo; otherwise prints the command.
set -uo pipefail
nvcc=${1:-nvcc}
packages=(libcriterion-dev gnuplot-nox pandoc)
if [[ ${SITE_TEST:-1} != 0 ]]; then
    packages+=(python3)
    # Debian's package; any Chromium or Chrome already on PATH will do.
    command -v chromium >/dev/null || command -v chromium-browser >/dev/null ||
        command -v google-chrome >/dev/null || packages+=(chromium)
fi
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    sudo=()
    if [[ $(id -u) -ne 0 ]]; then
        if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
            sudo=(sudo)
        else
            echo "deps: missing ${missing[*]}. Install them with:" >&2
            echo "    sudo apt-get install ${missing[*]}" >&2
            [[ " ${missing[*]} " == *" chromium "* ]] &&
                echo "    (chromium is only for the site's browser test: make deps SITE_TEST=0 leaves it out)" >&2
            exit 1
        fi
    fi
    "${sudo[@]}" apt-get update -qq && "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        "${missing[@]}" || {
        echo "deps: apt-get install ${missing[*]} failed" >&2
        [[ " ${missing[*]} " == *" chromium "* ]] &&
            echo "deps: chromium is only for the site's browser test: make deps SITE_TEST=0 leaves it out" >&2
        exit 1
    }
fi
echo "deps: Criterion, gnuplot and pandoc are installed$([[ ${SITE_TEST:-1} != 0 ]] && echo ", and Chromium for the site test")"
if ! command -v "$nvcc" >/dev/null 2>&1 && [[ ! -x $nvcc ]]; then
    echo "deps: nvcc not found (looked for '$nvcc'): the labs build for the CPU emulator only (EMU=1,"
    echo "      the default without nvcc: correctness, no timing; common/emu/README.md). For a GPU,"
    echo "      install the CUDA toolkit 12 or 13 (https://developer.nvidia.com/cuda-downloads) and put"
    echo "      its bin/ on PATH, or run make NVCC=/path/to/nvcc ..."
    exit 0
fi
version=$("$nvcc" --version | sed -n 's/.*release \([0-9]*\)\.\([0-9]*\).*/\1.\2/p')
major=${version%%.*}
if [[ -z $major || $major -lt 12 ]]; then
    echo "deps: nvcc $version is too old; the kit needs CUDA 12 or newer" >&2
    exit 1
fi
echo "deps: nvcc $version at $(command -v "$nvcc" || echo "$nvcc")"
# NCCL, for lab6 only: the Makefile's search result arrives in NCCL_INC / NCCL_LIB.
# Not installed here (it comes from NVIDIA's repository or a wheel); its absence is no error.
if [[ -n ${NCCL_INC:-} && -n ${NCCL_LIB:-} ]]; then
    nccl_version=$(awk '/#define NCCL_(MAJOR|MINOR|PATCH) /{v = v (v ? "." : "") $3} END{print v}' "$NCCL_INC/nccl.h")
    echo "deps: NCCL $nccl_version at $NCCL_LIB: lab6 (several GPUs) builds"
else
    echo "deps: NCCL not found: lab6 (several GPUs) is left out, everything else builds. To get it:"
    echo "      sudo apt-get install libnccl-dev (NVIDIA's CUDA apt repository), or"
    echo "      pip install nvidia-nccl-cu13 and make NCCL_HOME=<site-packages>/nvidia/nccl, or"
    echo "      make NCCL_HOME=/path/to/nccl (a folder holding include/nccl.h and lib/libnccl.so)"
    echo "      (under the CPU emulator, make lab6 EMU=1, lab6 builds with the emulator's NCCL stand-in)"
fi
# mpirun is optional: it starts lab6 as one process per GPU (mpirun -np G ./lab6); without it
# one process drives every GPU, and --ranks R --rank r starts the processes by hand.
if command -v mpirun >/dev/null 2>&1; then
    echo "deps: mpirun at $(command -v mpirun): lab6 can also run as one process per GPU (optional)"
else
    echo "deps: mpirun not found (optional: only for lab6 as one process per GPU, mpirun -np G ./lab6)"
fi
# The tools the sheets' questions use, from the CUDA toolkit (next to nvcc or on PATH);
# a minimal install may lack them: say which, without failing.
bindir=$(dirname "$(command -v "$nvcc" || echo "$nvcc")")
declare -A used_by=([cuobjdump]="the sheets' SASS questions" [compute-sanitizer]="make sanitize" [ncu]="make profile")
for tool in cuobjdump compute-sanitizer ncu; do
    command -v "$tool" >/dev/null 2>&1 || [[ -x $bindir/$tool ]] ||
        echo "deps: $tool not found (needed by ${used_by[$tool]}): it comes with the CUDA toolkit"
done
if nvidia-smi -L >/dev/null 2>&1; then
    echo "deps: GPU: $(nvidia-smi -L | head -1)"
else
    echo "deps: no GPU visible (nvidia-smi): labs build; make test runs the GPU suites under the CPU emulator"
fi
