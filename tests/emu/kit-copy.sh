# kit-copy.sh (sourced by the emulator's proofs in tests/emu/): copy_kit DIR copies the
# kit's sources and its emulation build into DIR, so that building a lab's emulated
# driver there (make EMU=1 solutionN) recompiles only what changed and leaves this
# tree's own drivers alone.
copy_kit() {
    mkdir -p "$1/build"
    cp -a Makefile common tools solutions "$1/"
    cp -a build/emu build/last-arch build/last-emu "$1/build/" 2>/dev/null
}
