#!/usr/bin/env bash
# deps.sh NVCC: install what the kit needs besides CUDA (Criterion, gnuplot) and
# check that nvcc is there. Uses apt as root or with sudo; otherwise prints the command.
set -uo pipefail
nvcc=${1:-nvcc}
packages=(libcriterion-dev gnuplot-nox)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    if [[ $(id -u) -eq 0 ]]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" ||
            { echo "deps: apt-get install ${missing[*]} failed" >&2; exit 1; }
    elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
        sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" ||
            { echo "deps: sudo apt-get install ${missing[*]} failed" >&2; exit 1; }
    else
        echo "deps: missing ${missing[*]}. Install them with:" >&2
        echo "    sudo apt-get install ${missing[*]}" >&2
        exit 1
    fi
fi
echo "deps: Criterion and gnuplot are installed"
if ! command -v "$nvcc" >/dev/null 2>&1 && [[ ! -x $nvcc ]]; then
    echo "deps: nvcc not found (looked for '$nvcc'). Install the CUDA toolkit 12 or 13" >&2
    echo "      (https://developer.nvidia.com/cuda-downloads) and put its bin/ on PATH, or run" >&2
    echo "      make NVCC=/path/to/nvcc ..." >&2
    exit 1
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
fi
if nvidia-smi -L >/dev/null 2>&1; then
    echo "deps: GPU: $(nvidia-smi -L | head -1)"
else
    echo "deps: no GPU visible (nvidia-smi): labs build, GPU suites will be skipped"
fi
