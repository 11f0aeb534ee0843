#!/usr/bin/env bash
# student-check.sh [TARBALL]: unpack the student copy (make dist) alone, in a fresh
# folder, and run in it every command that its README, exercise sheets and lectures
# give a student (`make ...`, `./labN ...`, `build/tests/...` in code spans and code
# blocks), so an advertised command cannot break unnoticed. Placeholders are filled
# in: LAB=N / labN with the lab of the sheet (every lab for the README), SLUG with
# one of the lab's variants. Without a GPU a command passes when it succeeds, when
# it stops at a step still TODO (exit 3), or when it says clearly that it needs a
# GPU or the instructor's tree (exit 2). Commands of other tools (cuobjdump, ncu)
# are not run; the files they name must exist once everything is built.
set -uo pipefail
tarball=$(realpath "${1:-$(ls dist/cuda-kit-student-*.tar.gz 2>/dev/null | head -1)}")
[[ -f $tarball ]] || { echo "student-check: $tarball not found (make dist)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar xzf "$tarball" -C "$work"
cd "$work"/cuda-kit-student || exit 2
export ARCH=${ARCH:-sm_75}
echo "student-check: building the student copy alone ($ARCH)"
make -s all >build.log 2>&1 || { cat build.log; echo "student-check: the student copy does not build" >&2; exit 1; }

# file<TAB>command for every command in a code span or a code block line
extract() {
    awk '
    function emit(cmd) {
        sub(/[ \t]+#.*$/, "", cmd); sub(/^[ \t]+/, "", cmd); sub(/[ \t]+$/, "", cmd)
        if (cmd ~ /^(make |\.\/(lab|solution)[0-9]|\.?\/?build\/tests\/|cuobjdump |ncu )/) print FILENAME "\t" cmd
    }
    /^```/ { block = !block; next }
    block { emit($0); next }
    {
        line = $0
        while (match(line, /`[^`]+`/)) {
            emit(substr(line, RSTART + 1, RLENGTH - 2))
            line = substr(line, RSTART + RLENGTH)
        }
    }' "$@"
}

lab_of() { # the lab a page belongs to, or "" for the README
    case $1 in
    labs/lab*) basename "$(dirname "$1")" | sed 's/^lab\([0-9]*\)-.*/\1/' ;;
    lectures/[0-9]*) basename "$1" | sed 's/^0*\([0-9][0-9]*\)-.*/\1/' ;;
    *) echo "" ;;
    esac
}

# What a command that cannot work here must say (no GPU, no NCCL for lab6, an
# instructor's command, or a bare `make grade` that must be told which lab).
clear_refusal="no CUDA-capable GPU found|needs a GPU|no GPU visible|this is a student copy|needs NCCL|say which lab"
labs=$(ls -d labs/lab*-*/ | sed 's|labs/lab\([0-9]*\)-.*|\1|' | sort -n)
failed=0 checked=0
declare -A seen
while IFS=$'\t' read -r page cmd; do
    lab=$(lab_of "$page")
    for k in ${lab:-$labs}; do
        c=$cmd
        c=${c//LAB=N/LAB=$k}
        c=$(sed -E "s/(lab|solution|test_lab|grade_lab)N\b/\1$k/g" <<<"$c")
        if [[ $c == *SLUG* ]]; then
            slug=$(./lab"$k" --list 2>/dev/null | awk 'NR == 2 { print $1 }')
            c=${c//SLUG/$slug}
        fi
        [[ -n ${seen[$c]:-} ]] && continue
        seen[$c]=1
        if [[ $c == *...* ]]; then
            echo "  skip   $c   ($page: elided arguments)"
            continue
        fi
        checked=$((checked + 1))
        if [[ $c == cuobjdump* || $c == ncu* ]]; then
            verdict=ok
            for word in $c; do
                if [[ $word == */* && $word != -* && ! -e $word ]]; then verdict="FAIL: $word does not exist"; fi
            done
        else
            out=$(timeout 600 bash -c "$c" 2>&1)
            rc=$?
            if ((rc == 0)); then verdict=ok
            elif ((rc == 3)); then verdict="ok (exit 3: steps still TODO)"
            # make test's recipe (tools/student-tests.sh) exits 3 for the starter's TODO
            # steps, and make reports that as its own exit status 2
            elif ((rc == 2)) && grep -q "Error 3" <<<"$out" && grep -q "steps still TODO" <<<"$out"; then
                verdict="ok (make: steps still TODO)"
            elif ((rc == 2)) && grep -qE "$clear_refusal" <<<"$out"; then verdict="ok (exit 2: $(grep -m1 -oE "$clear_refusal.*" <<<"$out" | cut -c1-80))"
            elif [[ $c == *build/tests/* ]] && grep -q "Synthesis: Tested" <<<"$out"; then verdict="ok (the suite ran)"
            else verdict="FAIL (exit $rc): $(tail -3 <<<"$out" | tr '\n' ' ' | cut -c1-300)"
            fi
        fi
        [[ $verdict == FAIL* ]] && failed=$((failed + 1))
        printf '  %-5s %s   (%s)\n' "${verdict%% *}" "$c" "$page"
        [[ $verdict != ok ]] && printf '        %s\n' "$verdict"
    done
done < <(extract README.md labs/*/README.md lectures/*.md)

# Every pointer a page gives must resolve in the student copy: Markdown links and
# images (relative to the page) and repository paths in code spans.
bad_links=0
for page in README.md labs/*/README.md lectures/*.md; do
    while read -r target; do
        target=${target%%#*}
        [[ -z $target || $target == *://* || $target == mailto:* ]] && continue
        if [[ ! -e $(dirname "$page")/$target ]]; then
            echo "  FAIL  $page links to $target, which is not in the student copy"
            bad_links=$((bad_links + 1))
        fi
    done < <(grep -oE '\]\([^) ]+\)' "$page" | sed 's/^](//; s/)$//')
    while read -r path; do
        # a pattern (labN-*, vK_*.cu, NN-*.md) names many files: not checked
        [[ $path =~ [*\<{]|\.\.\.|labN|vK|NN ]] && continue
        # the README speaks to instructors too: its solutions/ is theirs
        [[ $page == README.md && $path == solutions/* ]] && continue
        if [[ ! -e $path ]]; then
            echo "  FAIL  $page names $path, which is not in the student copy"
            bad_links=$((bad_links + 1))
        fi
    done < <(grep -oE '`(solutions|labs|plots|lectures|tests|tools|common)/[^` ]*`' "$page" | tr -d '`' | sed 's/[.,:;)]*$//')
done
echo "student-check: $checked commands run in the student copy, $failed failed; $bad_links pointers that do not resolve"
((failed == 0 && bad_links == 0))
