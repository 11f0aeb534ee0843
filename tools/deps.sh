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
if nvidia-smi -L >/dev/null 2>&1; then
    echo "deps: GPU: $(nvidia-smi -L | head -1)"
else
    echo "deps: no GPU visible (nvidia-smi): labs build, GPU suites will be skipped"
fi
