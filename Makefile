# The CUDA course kit. `make help` lists every target.
#
#   make deps                  install Criterion and gnuplot, check nvcc
#   make lab0 && ./lab0        the student's copy (labs/)
#   make solution0 && ./solution0   the reference solution (solutions/)
#   make test                  CPU suites always, GPU suites when a GPU is present
#
#   make lab0 EMU=1            lab 0 under the CPU emulator: no GPU, no CUDA toolkit needed
#
# Variables: ARCH=sm_90 (default: the last build's, else the local GPU, else sm_75),
#            EMU=1 (the CPU emulator; the default where nvcc is missing),
#            NVCC=/path/to/nvcc, LAB=N for grade/sanitize, GRADE_FORMAT=tap|json|xml,
#            NCCL_HOME=/path (lab6 only: where NCCL is; NCCL_HOME=none builds without it).

SHELL := /bin/bash
NVCC ?= $(shell command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(NVCC))
HAVE_GPU := $(shell nvidia-smi -L >/dev/null 2>&1 && echo yes)
BUILD := build
# build/last-arch holds the ARCH of the last build. A make without ARCH= keeps it
# (a plain `make lab4` after `make ARCH=sm_90 lab3` stays sm_90); only the first
# build picks the default: the local GPU, or sm_75 on a machine without one.
# Every CUDA object and binary depends on the stamp, so switching ARCH rebuilds
# them instead of mixing machine code.
ARCH_STAMP := build/last-arch
ifeq ($(origin ARCH),undefined)
ARCH := $(or $(shell cat $(ARCH_STAMP) 2>/dev/null),$(if $(HAVE_GPU),native,sm_75))
endif
CC ?= gcc
# Goals that compile nothing leave it alone (make help on a machine without a GPU
# must not turn the next build into an sm_75 one).
NO_BUILD_GOALS := help deps labs check-labs plots tables check-tables check-data site site-test clean
BUILDING := $(filter-out $(NO_BUILD_GOALS),$(or $(MAKECMDGOALS),all))
# $(call write_stamp,FILE,VALUE): FILE holds VALUE, rewritten (and so newer than what
# depends on it) only when the value changed; only goals that build write stamps.
write_stamp = $(if $(BUILDING),$(shell mkdir -p build; [ -f $(1) ] && [ "$$(cat $(1))" = "$(2)" ] || echo "$(2)" > $(1)))
$(call write_stamp,$(ARCH_STAMP),$(ARCH))
COMMON_CFLAGS := -O2 -Wall -Wextra -fopenmp -Icommon
CFLAGS_KIT := -std=c11 -D_GNU_SOURCE $(COMMON_CFLAGS) -I$(CUDA_HOME)/include -MMD -MP
NVFLAGS := -O3 -std=c++17 -arch=$(ARCH) -lineinfo -Icommon -Xcompiler -Wall,-Wextra -MMD -MP
LDLIBS := -Xcompiler -fopenmp

# Lab folders: solutions/labN-topic (labs/ in a student copy, which has no
# solutions/); the number N names the targets.
SOURCE_TREE := $(if $(wildcard solutions/lab*-*),solutions,labs)
LAB_DIRS := $(sort $(notdir $(wildcard $(SOURCE_TREE)/lab*-*)))
lab_num = $(patsubst lab%,%,$(firstword $(subst -, ,$(1))))
LAB_NUMS := $(foreach d,$(LAB_DIRS),$(call lab_num,$(d)))
lab_dir = $(filter lab$(1)-%,$(LAB_DIRS))

# ---- NCCL (lab6 only) -------------------------------------------------------------
# Labs that call NCCL build only where it is found; everything else builds and tests
# without it. Searched in NCCL_HOME when it is set (and only there: NCCL_HOME=none
# turns lab6 off), else in the CUDA toolkit's folders, else in the usual system
# paths. NCCL_HOME is a prefix with include/nccl.h and lib/libnccl.so*, e.g. the
# nvidia/nccl folder of the nvidia-nccl-cu13 wheel (which has only libnccl.so.2).
NCCL_LABS := 6
MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)
NCCL_PREFIXES := $(if $(NCCL_HOME),$(NCCL_HOME),$(CUDA_HOME) /usr /usr/local)
NCCL_INC := $(firstword $(foreach p,$(NCCL_PREFIXES),$(patsubst %/nccl.h,%,$(wildcard $(p)/include/nccl.h))))
NCCL_LIB := $(firstword $(foreach p,$(NCCL_PREFIXES),$(foreach d,lib64 lib lib/$(MULTIARCH),\
              $(wildcard $(p)/$(d)/libnccl.so $(p)/$(d)/libnccl.so.2))))
HAVE_NCCL := $(if $(and $(NCCL_INC),$(NCCL_LIB)),yes)
ifeq ($(HAVE_NCCL),yes)
CFLAGS_KIT += -I$(NCCL_INC)
NVFLAGS += -I$(NCCL_INC)
# The library file itself (the wheel has no libnccl.so link), found again at run time.
NCCL_LDLIBS := -Xlinker $(NCCL_LIB) -Xlinker -rpath=$(patsubst %/,%,$(dir $(NCCL_LIB)))
BUILD_NUMS := $(LAB_NUMS)
else
BUILD_NUMS := $(filter-out $(NCCL_LABS),$(LAB_NUMS))
endif
comma := ,
empty :=
space := $(empty) $(empty)
NCCL_WHERE := $(if $(NCCL_HOME),NCCL_HOME=$(NCCL_HOME),$(CUDA_HOME)/{include$(comma)lib64$(comma)lib}$(comma) /usr and /usr/local)
# Every target of a lab that needs NCCL, where there is none: this advice, exit status 2.
define NCCL_ADVICE
	@echo "lab$(1) needs NCCL (include/nccl.h and libnccl.so), not found in $(NCCL_WHERE)." >&2
	@echo "Get it with one of:" >&2
	@echo "  sudo apt-get install libnccl-dev      (NVIDIA's CUDA apt repository), then make lab$(1)" >&2
	@echo "  pip install nvidia-nccl-cu13, then    make lab$(1) NCCL_HOME=<site-packages>/nvidia/nccl" >&2
	@echo "      (python3 -c 'import nvidia.nccl; print(nvidia.nccl.__path__[0])' prints that folder)" >&2
	@echo "  make lab$(1) NCCL_HOME=/path/to/nccl    (any folder holding include/nccl.h and lib/libnccl.so)" >&2
	@echo "Everything else builds and tests without NCCL; 'make deps' says what was found." >&2
	@exit 2
endef

# ---- the CPU emulator (common/emu/README.md) ---------------------------------------
# EMU=1 builds the drivers (./labN, ./solutionN) with the host compiler against the
# emulator's CUDA headers (common/emu/include): kernels run on the CPU, correctness
# only. It is the default where nvcc is missing; make test uses it for the GPU suites
# where no GPU is present. lab6 builds with it always (an NCCL stand-in).
NVCC_FOUND := $(shell command -v $(NVCC) 2>/dev/null)
EMU ?= $(if $(NVCC_FOUND),0,1)
EMU_STAMP := build/last-emu
# (The stamp changes when EMU does, so that the drivers relink; written once EMU has
# its value.)
$(call write_stamp,$(EMU_STAMP),$(EMU))
ifeq ($(EMU),1)
BUILD_NUMS := $(LAB_NUMS)
endif

COMMON_SRC := $(wildcard common/*.c)
COMMON_OBJ := $(COMMON_SRC:%=$(BUILD)/%.o)

# Objects of one lab tree (solutions or labs): everything but main.
# $(1) = solutions|labs, $(2) = lab dir
lab_src = $(wildcard $(1)/$(2)/*.c $(1)/$(2)/*.cu)
lab_obj = $(patsubst %,$(BUILD)/%.o,$(call lab_src,$(1),$(2)))
lab_lib_obj = $(filter-out %/main.c.o,$(call lab_obj,$(1),$(2)))

.PHONY: all help deps labs check-labs test grade grade-submission grade-self-build grade-judge-build grade-worker-build \
        profile sanitize plots tables check-tables check-data check-figures bench dist clean site site-test

ifeq ($(SOURCE_TREE),solutions)
all: $(addprefix solution,$(BUILD_NUMS)) $(addprefix lab,$(BUILD_NUMS))
else
all: $(addprefix lab,$(BUILD_NUMS))
endif
	@$(if $(or $(HAVE_NCCL),$(filter 1,$(EMU))),true,echo "note: lab$(NCCL_LABS) not built: NCCL not found ('make lab$(NCCL_LABS)' says how to get it)")

help:
	@echo "Targets:"
	@echo "  make deps            install Criterion and gnuplot (apt), check that nvcc is there"
	@echo "  make labN            build the student's lab N from labs/ into ./labN   (N = $(LAB_NUMS))"
	@echo "  make labN EMU=1      the same under the CPU emulator: no GPU needed, correctness only (no timing)"
	@echo "  make solutionN       build the reference solution of lab N into ./solutionN"
	@echo "  make all             build every lab and every solution"
	@echo "  make test            build everything, run the CPU suites and the GPU suites (without a GPU:"
	@echo "                       under the CPU emulator, on the suites' small sizes)"
	@echo "  make grade LAB=N     the self-check: lab N's steps' tests on labs/, then each step's speed"
	@echo "                       against the reference on this GPU (labN-*/speed.cfg); reports in"
	@echo "                       build/grade/self/labN/ (GRADE_FORMAT=tap, json or xml prints that report)"
	@echo "  make grade-submission LAB=N SUB=PATH [OUT=DIR]   the grade for credit (instructor's tree, GPU):"
	@echo "                       only the files a student hands in, run apart, judged by code that holds"
	@echo "                       none of theirs; Gradescope results.json, junit.xml, results.tap (docs/instructors.md)"
	@echo "  make profile LAB=N VARIANT=slug   Nsight Compute on one variant next to the step before it:"
	@echo "                       DRAM % of peak, occupancy, top stall, bank conflicts, instructions"
	@echo "                       (N_SIZE=2^24, PREV=slug|none, ARGS='--type i64'; report in build/profile/)"
	@echo "  make sanitize LAB=N  every variant of your lab N (./labN) under compute-sanitizer (4 tools);"
	@echo "                       SOURCE=solutions checks the reference ./solutionN instead"
	@echo "                       (SANITIZE_ARGS='--op all' for other modes; default: the lab's sanitize.args)"
	@echo "  make labs            regenerate labs/ (starter code) from solutions/"
	@echo "  make check-labs      fail if the committed labs/ differs from what make labs writes"
	@echo "  make bench           (GPU) rerun every lab's sweep into plots/data/*.csv"
	@echo "  make plots           render plots/*.png from plots/data/*.csv with gnuplot"
	@echo "  make tables          fill the results tables of lectures, notebooks and sheets from plots/data"
	@echo "  make check-tables    fail if a committed table differs from its CSV (CI runs it)"
	@echo "  make check-data      fail if a file under plots/data/ is referenced nowhere (CI runs it)"
	@echo "  make check-figures   fail if a figure drawn from a trace no longer matches the code (CI runs it)"
	@echo "  (lab5 tuning)        bash plots/bench-lab5.sh --build-tune DIR, then --tune DIR OUT on the GPU:"
	@echo "                       onesweep's tile shapes (lab5_shapes.h) side by side with CUB"
	@echo "  make dist            pack a student copy (no solutions/) into dist/cuda-kit-student-VERSION.tar.gz,"
	@echo "                       fail if it quotes a solution line or holds PTX, then unpack it alone and run"
	@echo "                       every command its pages give; it ships stripped reference executables for"
	@echo "                       the speed self-check (REF_ARCH='sm_80 sm_90')"
	@echo "  make site            render README, lectures, exercise sheets and results into site/ (pandoc)"
	@echo "  make site-test       open every page of site/ in headless Chromium: links, images, console"
	@echo "                       (part of make test when Chromium is installed; SITE_TEST=0 leaves it out)"
	@echo "  make clean           remove build outputs"
	@echo "Variables: ARCH=sm_90 (default: the last build's; first build native, sm_75 without a GPU), NVCC=path, LAB=N, GRADE_FORMAT=tap|json|xml,"
	@echo "           EMU=1 (the CPU emulator, the default without nvcc; KIT_EMU_SEED, KIT_EMU_GPUS: common/emu/README.md),"
	@echo "           SPEED_ROUNDS=5 SPEED_REPS=10 (the speed race), GRADE_SPEED=0, REF_ARCH (make dist), SITE_TEST=0,"
	@echo "           NCCL_HOME=path (where NCCL is; lab6 only, NCCL_HOME=none builds without it)"
	@echo "lab6 (several GPUs, NCCL): $(if $(HAVE_NCCL),NCCL found ($(NCCL_LIB)),NCCL not found: lab6 is left out; 'make lab6' says how to get it)"

# ---- dependencies ---------------------------------------------------------------
# SITE_TEST=0: no Chromium installed for the site's browser test, and make test skips it.
SITE_TEST ?= 1
deps:
	@SITE_TEST=$(SITE_TEST) NCCL_INC="$(NCCL_INC)" NCCL_LIB="$(NCCL_LIB)" bash tools/deps.sh "$(NVCC)"

# ---- compiling ------------------------------------------------------------------
$(BUILD)/common/%.c.o: common/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_KIT) -c $< -o $@

$(BUILD)/solutions/%.c.o: solutions/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_KIT) -I$(dir $<) -c $< -o $@

$(BUILD)/solutions/%.cu.o: solutions/%.cu $(ARCH_STAMP)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVFLAGS) -I$(dir $<) -c $< -o $@

$(BUILD)/labs/%.c.o: labs/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_KIT) -I$(dir $<) -c $< -o $@

$(BUILD)/labs/%.cu.o: labs/%.cu $(ARCH_STAMP)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVFLAGS) -I$(dir $<) -c $< -o $@

$(BUILD)/tests/%.c.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_KIT) $(TEST_INCLUDES) -c $< -o $@

# ---- compiling for the CPU emulator (EMU=1, and the GPU suites without a GPU) ---------
# A .cu file goes through tools/emu-rewrite.cc (launches, __shared__, inline PTX;
# every line stays on its line) into build/emu/src/, with every header of its folder
# and of common/, then through the host compiler with GCC's ThreadSanitizer
# instrumentation, whose hooks are the emulator's checks (no ThreadSanitizer runtime
# is linked). C files compile as they are, against the emulator's cuda_runtime_api.h.
# Device code reaches the host compiler here, not under nvcc: its unused parameters
# (a starter's stubs) are not warned about, as nvcc's host pass never sees them.
EMU_BUILD := $(BUILD)/emu
EMU_INC := common/emu/include
EMU_REWRITE := $(EMU_BUILD)/tools/emu-rewrite
EMU_RUNTIME_OBJ := $(patsubst %,$(EMU_BUILD)/%.o,$(wildcard common/emu/*.cc))
EMU_COMMON_OBJ := $(COMMON_SRC:%=$(EMU_BUILD)/%.o)
EMU_HEADERS := $(patsubst %,$(EMU_BUILD)/src/%,$(wildcard common/*.h common/*.cuh $(SOURCE_TREE)/lab*-*/*.h \
                 $(SOURCE_TREE)/lab*-*/*.cuh $(if $(filter solutions,$(SOURCE_TREE)),labs/lab*-*/*.h labs/lab*-*/*.cuh)))
EMU_CFLAGS := -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -fopenmp -Icommon -I$(EMU_INC) -MMD -MP
EMU_CXXFLAGS := -std=c++17 -O2 -g -Wall -Wextra -Wno-unknown-pragmas -Wno-unused-parameter -x c++ -I$(EMU_INC) -include cuda_runtime.h \
                -fstack-clash-protection \
                -D__CUDACC__ -D__CUDA_ARCH__=900 -D__CUDA_ARCH_LIST__=900 -fsanitize=thread -Wno-tsan \
                --param tsan-distinguish-volatile=1 --param tsan-instrument-func-entry-exit=0 -MMD -MP
EMU_LDLIBS := -fopenmp -lpthread -ldl
emu_lab_obj = $(patsubst %,$(EMU_BUILD)/%.o,$(call lab_src,$(1),$(2)))
emu_lab_lib_obj = $(filter-out %/main.c.o,$(call emu_lab_obj,$(1),$(2)))

$(EMU_REWRITE): tools/emu-rewrite.cc
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 -O2 -Wall -Wextra -o $@ $<

# (A header that is gone since the last build is named by an old dependency file:
# its rewritten copy goes too, and what included it is rebuilt.)
.PRECIOUS: $(EMU_BUILD)/src/%.cu $(EMU_BUILD)/src/%.cuh $(EMU_BUILD)/src/%.h
emu_rewrite = @mkdir -p $(dir $@); if [ -f $< ]; then $(EMU_REWRITE) $< $@ $<; else rm -f $@; fi
$(EMU_BUILD)/src/%.cu: %.cu $(EMU_REWRITE)
	$(emu_rewrite)
$(EMU_BUILD)/src/%.cuh: %.cuh $(EMU_REWRITE)
	$(emu_rewrite)
$(EMU_BUILD)/src/%.h: %.h $(EMU_REWRITE)
	$(emu_rewrite)

$(EMU_BUILD)/%.cu.o: $(EMU_BUILD)/src/%.cu | $(EMU_HEADERS)
	@mkdir -p $(dir $@)
	$(CXX) $(EMU_CXXFLAGS) -I$(EMU_BUILD)/src/common -I$(dir $<) -c $< -o $@

$(EMU_BUILD)/%.c.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(EMU_CFLAGS) -I$(dir $<) $(if $(filter tests/%,$<),$(TEST_INCLUDES)) -c $< -o $@

$(EMU_BUILD)/common/emu/%.cc.o: common/emu/%.cc
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 -O2 -g -Wall -Wextra -I$(EMU_INC) -MMD -MP -c $< -o $@

# ---- grading (tools/grade/, tools/grade.sh, tools/grade-submission.sh) -------------------
# For credit, a submission's files run in a worker and a judge that holds none of them
# decides (tools/grade/replay.h): the judge of lab N is the lab's GPU suite and every
# file but the student's, with a stand-in that replays the worker's record for each
# function of tools/grade/labN.calls; the worker links the submission's files in their
# place, each call wrapped and recorded. Both watch the CUDA calls that make the tests'
# buffers and events (tools/grade/replay_cuda.cu). The speed drivers are the lab's
# driver with the speed probe, raced by tools/grade/race.c.
GRADE_BUILD := $(BUILD)/grade
GRADE_RUNTIME_CALLS := cudaMalloc cudaFree cudaMallocHost cudaHostAlloc cudaFreeHost cudaEventCreate \
                       cudaEventCreateWithFlags cudaEventDestroy cudaEventRecord cudaEventRecordWithFlags
linker_wraps = $(foreach f,$(1),-Xlinker --wrap=$(f))
grade_calls = $(shell sed -n 's/^GRADE_CALL.[^,]*, *\([A-Za-z0-9_]*\),.*/\1/p' tools/grade/lab$(1).calls 2>/dev/null)
# The files of a lab a student hands in: those with a BEGIN SOLUTION region.
handin_files = $(notdir $(shell grep -l '// BEGIN SOLUTION' $(wildcard solutions/$(1)/*) /dev/null 2>/dev/null))
# The lab's other objects: what the judge and the worker share.
kept_obj = $(filter-out $(foreach f,$(call handin_files,$(1)),%/$(f).o),$(call lab_lib_obj,solutions,$(1)))
GRADE_HOOK_OBJ := $(GRADE_BUILD)/case.c.o $(GRADE_BUILD)/report_hook.c.o
GRADE_REPLAY_OBJ := $(GRADE_BUILD)/replay.c.o $(GRADE_BUILD)/replay_cuda.cu.o
# The worker runs the suite without Criterion's runner (tools/grade/worker_main.c):
# its objects see tools/grade/worker_criterion/ as Criterion.
WORKER_CRITERION := -Itools/grade/worker_criterion
GRADE_WORKER_OBJ := $(patsubst %,$(GRADE_BUILD)/worker/%.c.o,case replay worker_main) $(GRADE_BUILD)/replay_cuda.cu.o
GRADE_PROBE_LINK := $(call linker_wraps,kit_run_cases)
GRADE_TOOLS := $(GRADE_BUILD)/contain $(GRADE_BUILD)/race

$(GRADE_BUILD)/%.c.o: tools/grade/%.c tools/grade/replay.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_KIT) -c $< -o $@
$(GRADE_BUILD)/worker/%.c.o: tools/grade/%.c tools/grade/replay.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_KIT) $(WORKER_CRITERION) -c $< -o $@
$(GRADE_BUILD)/worker/test_lab%.c.o: tests/gpu/test_lab%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_KIT) $(WORKER_CRITERION) $(TEST_INCLUDES) -c $< -o $@
$(GRADE_BUILD)/%.cu.o: tools/grade/%.cu tools/grade/replay.h $(ARCH_STAMP)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVFLAGS) -c $< -o $@
$(GRADE_BUILD)/contain $(GRADE_BUILD)/race: $(GRADE_BUILD)/%: tools/grade/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O2 -Wall -Wextra -o $@ $<

# $(1) = N, $(2) = the lab's folder: the judge, the reference's speed driver, the
# worker's own objects; for lab $(LAB) with GRADE_WORK=DIR (tools/grade-submission.sh)
# also the worker and the speed driver of the submission in DIR/lab.
define GRADE_RULES
$(GRADE_BUILD)/judge_lab$(1).c.o $(GRADE_BUILD)/worker_lab$(1).c.o: $(GRADE_BUILD)/%_lab$(1).c.o: tools/grade/%.c tools/grade/lab$(1).calls tools/grade/replay.h
	@mkdir -p $$(dir $$@)
	$(CC) $(CFLAGS_KIT) -Isolutions/$(2) -Itools/grade -DGRADE_HEADER=lab$(1).h -DGRADE_CALLS=lab$(1).calls -c $$< -o $$@
$(GRADE_BUILD)/judge_lab$(1): $(BUILD)/tests/gpu/test_lab$(1).c.o $(call kept_obj,$(2)) $(COMMON_OBJ) $(GRADE_BUILD)/judge_lab$(1).c.o $(GRADE_HOOK_OBJ) $(GRADE_REPLAY_OBJ)
	$(NVCC) -arch=$(ARCH) -o $$@ $$^ -lcriterion $(call linker_wraps,$(GRADE_RUNTIME_CALLS)) $(call lab_ldlibs,$(1))
$(GRADE_BUILD)/speed_lab$(1): $(call lab_obj,solutions,$(2)) $(COMMON_OBJ) $(GRADE_BUILD)/speed_probe.c.o
	$(NVCC) -arch=$(ARCH) -o $$@ $$^ $(GRADE_PROBE_LINK) $(call lab_ldlibs,$(1))
ifneq ($(and $(GRADE_WORK),$(filter $(LAB),$(1))),)
$(GRADE_WORK)/worker: $(GRADE_BUILD)/worker/test_lab$(1).c.o $(call kept_obj,$(2)) $(call handin_obj,$(2)) $(COMMON_OBJ) $(GRADE_BUILD)/worker_lab$(1).c.o $(GRADE_WORKER_OBJ)
	$(NVCC) -arch=$(ARCH) -o $$@ $$^ $(call linker_wraps,$(GRADE_RUNTIME_CALLS) $(call grade_calls,$(1))) $(call lab_ldlibs,$(1))
$(GRADE_WORK)/speed: $(BUILD)/solutions/$(2)/main.c.o $(call kept_obj,$(2)) $(call handin_obj,$(2)) $(COMMON_OBJ) $(GRADE_BUILD)/speed_probe.c.o
	$(NVCC) -arch=$(ARCH) -o $$@ $$^ $(GRADE_PROBE_LINK) $(call lab_ldlibs,$(1))
endif
endef
# The submission's objects: its .c and .cu files, compiled in GRADE_WORK with the
# submission's lab folder and a copy of common/ as the only include paths of the kit
# (a file of the submission cannot reach solutions/ through them).
handin_obj = $(patsubst %,$(GRADE_WORK)/obj/%.o,$(filter %.c %.cu,$(call handin_files,$(1))))
ifneq ($(GRADE_WORK),)
HANDIN_INCLUDES := -I$(GRADE_WORK)/lab -I$(GRADE_WORK)/common
$(GRADE_WORK)/obj/%.cu.o: $(GRADE_WORK)/lab/%.cu $(ARCH_STAMP)
	@mkdir -p $(dir $@)
	$(NVCC) $(filter-out -Icommon,$(NVFLAGS)) $(HANDIN_INCLUDES) -c $< -o $@
$(GRADE_WORK)/obj/%.c.o: $(GRADE_WORK)/lab/%.c
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -Icommon,$(CFLAGS_KIT)) $(HANDIN_INCLUDES) -c $< -o $@
endif

# ---- one lab: ./labN, ./solutionN and its grading binary ---------------------------
lab_ldlibs = $(LDLIBS) $(if $(filter $(1),$(NCCL_LABS)),$(NCCL_LDLIBS))
# A driver's objects ($(1) = solutions|labs, $(2) = lab dir) and its link (for lab
# $(1)): nvcc's, or with EMU=1 the emulator's (the stamp relinks when EMU changes).
driver_objs = $(if $(filter 1,$(EMU)),$(call emu_lab_obj,$(1),$(2)) $(EMU_COMMON_OBJ) $(EMU_RUNTIME_OBJ),$(call lab_obj,$(1),$(2)) $(COMMON_OBJ) $(ARCH_STAMP)) $(EMU_STAMP)
define link_driver
	$(if $(filter 1,$(EMU)),$(CXX) -o $$@ $$(filter %.o,$$^) $(EMU_LDLIBS),$(NVCC) -arch=$(ARCH) -o $$@ $$(filter %.o,$$^) $(call lab_ldlibs,$(1)))
	@mkdir -p $(BUILD)/bin && cp $$@ $(BUILD)/bin/
endef
define LAB_RULES
lab$(1): $(call driver_objs,labs,$(2))
	$(call link_driver,$(1))
ifeq ($(SOURCE_TREE),solutions)
solution$(1): $(call driver_objs,solutions,$(2))
	$(call link_driver,$(1))
endif
# make grade's suite: the GPU suite on labs/, reporting each case (tools/grade/report_hook.c).
$(BUILD)/tests/grade_lab$(1): $(BUILD)/tests/grade/test_lab$(1).c.o $(call lab_lib_obj,labs,$(2)) $(COMMON_OBJ) $(GRADE_HOOK_OBJ)
	$(NVCC) -arch=$(ARCH) -o $$@ $$^ -lcriterion $(call lab_ldlibs,$(1))
# make grade's speed side: ./labN's objects with the speed probe (tools/grade/speed_probe.c).
$(GRADE_BUILD)/self_speed_lab$(1): $(call lab_obj,labs,$(2)) $(COMMON_OBJ) $(GRADE_BUILD)/speed_probe.c.o
	$(NVCC) -arch=$(ARCH) -o $$@ $$^ $(GRADE_PROBE_LINK) $(call lab_ldlibs,$(1))
# This lab's suites alone (its GPU suite and tests/cpu/test_lab$(1)_*.c), for working on one lab.
# With EMU=1, the same suites under the CPU emulator.
$(BUILD)/tests/test_lab$(1): $(if $(filter 1,$(EMU)),$(patsubst %,$(EMU_BUILD)/%.o,tests/gpu/test_lab$(1).c $(wildcard tests/cpu/test_lab$(1)_*.c)) $(call emu_lab_lib_obj,$(SOURCE_TREE),$(2)) $(EMU_COMMON_OBJ) $(EMU_RUNTIME_OBJ),$(BUILD)/tests/gpu/test_lab$(1).c.o $(patsubst %,$(BUILD)/%.o,$(wildcard tests/cpu/test_lab$(1)_*.c)) $(call lab_lib_obj,$(SOURCE_TREE),$(2)) $(COMMON_OBJ)) $(EMU_STAMP)
	@mkdir -p $$(dir $$@)
	$(if $(filter 1,$(EMU)),$(CXX) -o $$@ $$(filter %.o,$$^) -lcriterion $(EMU_LDLIBS),$(NVCC) -arch=$(ARCH) -o $$@ $$(filter %.o,$$^) -lcriterion $(call lab_ldlibs,$(1)))
$(BUILD)/tests/grade/test_lab$(1).c.o: tests/gpu/test_lab$(1).c
	@mkdir -p $$(dir $$@)
	$(CC) $(CFLAGS_KIT) -Ilabs/$(2) -Itests -c $$< -o $$@
ifeq ($(SOURCE_TREE),solutions)
$(call GRADE_RULES,$(1),$(2))
endif
endef
define LAB_WITHOUT_NCCL_RULES
.PHONY: lab$(1) $(if $(filter solutions,$(SOURCE_TREE)),solution$(1)) $(BUILD)/tests/grade_lab$(1) $(BUILD)/tests/test_lab$(1)
lab$(1) $(if $(filter solutions,$(SOURCE_TREE)),solution$(1)) $(BUILD)/tests/grade_lab$(1) $(BUILD)/tests/test_lab$(1):
$(call NCCL_ADVICE,$(1))
endef
$(foreach d,$(LAB_DIRS),$(eval $(call $(if $(filter $(call lab_num,$(d)),$(BUILD_NUMS)),LAB_RULES,LAB_WITHOUT_NCCL_RULES),$(call lab_num,$(d)),$(d))))

# ---- tests ---------------------------------------------------------------------------
# One binary holds every suite, so `make test` ends with one Criterion synthesis line.
# Without NCCL, the GPU suite and objects of the labs that need it stay out; their
# CPU suites (tests/cpu/test_labN_*.c, host logic only) still run.
BUILD_DIRS := $(foreach d,$(LAB_DIRS),$(if $(filter $(call lab_num,$(d)),$(BUILD_NUMS)),$(d)))
# GPU suites: the harness's, and those of every lab that builds here (lab6 needs NCCL).
TEST_SRC := $(wildcard tests/cpu/*.c) $(filter-out tests/gpu/test_lab%.c,$(wildcard tests/gpu/*.c)) \
            $(filter $(BUILD_NUMS:%=tests/gpu/test_lab%.c),$(wildcard tests/gpu/*.c))
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.c.o)
TEST_INCLUDES := $(addprefix -I$(SOURCE_TREE)/,$(LAB_DIRS)) -Itests
SOLUTION_LIBS := $(foreach d,$(BUILD_DIRS),$(call lab_lib_obj,$(SOURCE_TREE),$(d)))

$(BUILD)/tests/kit_tests: $(TEST_OBJ) $(SOLUTION_LIBS) $(COMMON_OBJ)
	$(NVCC) -arch=$(ARCH) -o $@ $^ -lcriterion $(LDLIBS) $(if $(HAVE_NCCL),$(NCCL_LDLIBS))

# The same suites under the CPU emulator: every lab (lab6 on the NCCL stand-in), its
# kernels built for the CPU (EMU_BUILD above), and the emulator's own (tests/emu;
# test_rewrite.c runs the rewriter, hence the order-only prerequisite).
EMU_TEST_OBJ := $(patsubst %,$(EMU_BUILD)/%.o,$(wildcard tests/cpu/*.c tests/gpu/*.c tests/emu/*.c tests/emu/*.cu))
EMU_TEST_LIBS := $(foreach d,$(LAB_DIRS),$(call emu_lab_lib_obj,$(SOURCE_TREE),$(d)))
$(EMU_BUILD)/tests/kit_tests: $(EMU_TEST_OBJ) $(EMU_TEST_LIBS) $(EMU_COMMON_OBJ) $(EMU_RUNTIME_OBJ) | $(EMU_REWRITE)
	@mkdir -p $(dir $@)
	$(CXX) -o $@ $^ -lcriterion $(EMU_LDLIBS)

# ---- the student copy's reference (make dist: tools/dist.sh) -------------------------------
# What make grade's speed self-check races in a student copy: lab N's reference driver
# with the speed probe, for one architecture REF_SM=XY (reference/sm_XY/labN): machine
# code (SASS) only, no PTX and no line table, host symbols stripped, source paths
# named as the student's (labs/...). An executable: no submission can link it.
ifneq ($(REF_SM),)
REF_OUT := $(BUILD)/reference/sm_$(REF_SM)
REF_PATHS := -fmacro-prefix-map=$(CURDIR)/= -fmacro-prefix-map=solutions/=labs/
REF_NVFLAGS := -O3 -std=c++17 -gencode arch=compute_$(REF_SM),code=sm_$(REF_SM) -Icommon \
               -Xcompiler -Wall,-Wextra,$(subst $(space),$(comma),$(REF_PATHS))
$(REF_OUT)/%.cu.o: %.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(REF_NVFLAGS) -I$(dir $<) -c $< -o $@
$(REF_OUT)/%.c.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -MMD -MP,$(CFLAGS_KIT)) $(REF_PATHS) -I$(dir $<) -c $< -o $@
define REF_RULES
$(REF_OUT)/lab$(1): $(patsubst %,$(REF_OUT)/%.o,$(call lab_src,solutions,$(2)) $(COMMON_SRC) tools/grade/speed_probe.c)
	$(NVCC) -o $$@ $$^ $(GRADE_PROBE_LINK) -Xlinker --strip-all $(call lab_ldlibs,$(1))
endef
$(foreach d,$(BUILD_DIRS),$(eval $(call REF_RULES,$(call lab_num,$(d)),$(d))))
endif

# Criterion forks a worker per test; GPU tests must not share the device: -j1.
# Without a GPU (or with EMU=1) the GPU suites run under the CPU emulator instead of
# being skipped, one worker per core (no device to share), on the sizes it emulates
# (KIT_EMU_TEST_MAX_N, tests/kit_test.h); the larger ones are counted as not run.
# With solutions/ (the instructor's tree, CI): any failure fails, and the skipped
# tests are counted as not run. In a student copy: tools/student-tests.sh says per lab
# which steps are still TODO instead of printing a wall of failures.
TEST_TIMEOUT ?= 1500
TEST_EMULATED := $(if $(filter 1,$(EMU)),1,$(if $(HAVE_GPU),,1))
TEST_BIN := $(if $(TEST_EMULATED),$(EMU_BUILD)/tests/kit_tests,$(BUILD)/tests/kit_tests)
TEST_JOBS := $(if $(TEST_EMULATED),$(shell nproc 2>/dev/null || echo 1),1)
TEST_TAP := $(BUILD)/tests/kit_tests.tap
# (With nvcc but no GPU, the GPU build of the suites is still linked: it must build.)
# The grader's CPU tests use its tools; in the instructor's tree with nvcc they also
# read every lab's judge (tests/cpu/test_grade.c).
GRADE_TEST_DEPS := $(GRADE_TOOLS) $(if $(and $(NVCC_FOUND),$(filter solutions,$(SOURCE_TREE))),$(BUILD_NUMS:%=$(GRADE_BUILD)/judge_lab%))
test: all $(TEST_BIN) $(if $(and $(TEST_EMULATED),$(NVCC_FOUND),$(filter-out 1,$(EMU))),$(BUILD)/tests/kit_tests) $(GRADE_TEST_DEPS)
ifeq ($(SOURCE_TREE),solutions)
	@$(if $(TEST_EMULATED),echo "$(if $(HAVE_GPU),EMU=1,no GPU visible (nvidia-smi)): the GPU suites run under the CPU emulator (correctness only, sizes up to KIT_EMU_TEST_MAX_N); TEST_ARGS=--verbose shows each test",true)
	@$(if $(TEST_EMULATED),OMP_WAIT_POLICY=passive) timeout $(TEST_TIMEOUT) $(TEST_BIN) -j$(TEST_JOBS) --short-filename --tap=$(TEST_TAP) $(TEST_ARGS); \
	  status=$$?; read -r skipped why < <(awk -v report=notrun -f tools/tap.awk $(TEST_TAP)); \
	  if [ "$$skipped" -gt 0 ]; then echo "$$skipped tests not run (skipped, not passed): $$why"; fi; \
	  exit $$status
	@$(if $(TEST_EMULATED),bash tests/emu/planted-bugs.sh)
	@$(if $(TEST_EMULATED),bash tests/emu/speed-rows.sh)
else
	@timeout $(TEST_TIMEOUT) bash tools/student-tests.sh $(TEST_BIN) $(TEST_JOBS)
endif
	@$(SITE_TEST_RUN)

# The grade targets need LAB: missing, or not a lab, is one line and exit status 2.
GIVEN_LAB := $(LAB)
GRADE_GOAL := $(firstword $(filter grade $(if $(filter solutions,$(SOURCE_TREE)),grade-submission),$(MAKECMDGOALS)))
ifneq ($(GRADE_GOAL),)
ifeq ($(GIVEN_LAB),)
$(error make $(GRADE_GOAL): say which lab: make $(GRADE_GOAL) LAB=N (N = $(LAB_NUMS)))
else ifeq ($(filter $(GIVEN_LAB),$(LAB_NUMS)),)
$(error make $(GRADE_GOAL): LAB=$(GIVEN_LAB) is not a lab of this kit (labs: $(LAB_NUMS)))
endif
endif
LAB ?= 0
GRADE_FORMAT ?= score
# make grade LAB=N: the self-check. Lab N's grading selection of its GPU suite on
# labs/, then the speed of each step against the reference: in the instructor's tree
# the reference's speed driver built here, in a student copy the stripped executable
# make dist shipped (reference/sm_XY/labN). tools/grade.sh checks the GPU before it
# builds anything; without a GPU, or with EMU=1, it grades nothing: an emulated
# run is not a grade.
grade:
	@EMU=$(EMU) bash tools/grade.sh "$(GIVEN_LAB)" "$(GRADE_FORMAT)"

# What tools/grade.sh builds for lab $(LAB).
grade-self-build: $(BUILD)/tests/grade_lab$(LAB) $(GRADE_BUILD)/self_speed_lab$(LAB) $(GRADE_TOOLS) \
                  $(if $(filter solutions,$(SOURCE_TREE)),$(GRADE_BUILD)/speed_lab$(LAB))

ifeq ($(SOURCE_TREE),solutions)
# make grade-submission LAB=N SUB=PATH [OUT=DIR]: the grade for credit, in the
# instructor's tree (tools/grade-submission.sh; reports in OUT, default
# build/grade/submissions/NAME).
grade-submission:
	@NCCL_INC="$(NCCL_INC)" bash tools/grade-submission.sh "$(GIVEN_LAB)" "$(SUB)" "$(OUT)"

# What tools/grade-submission.sh builds: the lab's judge and reference, then the
# submission's worker and speed driver (GRADE_WORK=DIR).
grade-judge-build: $(GRADE_BUILD)/judge_lab$(LAB) $(GRADE_BUILD)/speed_lab$(LAB) $(GRADE_TOOLS) \
                   $(GRADE_BUILD)/worker/test_lab$(LAB).c.o $(GRADE_BUILD)/worker_lab$(LAB).c.o $(GRADE_WORKER_OBJ)
grade-worker-build: $(GRADE_WORK)/worker $(GRADE_WORK)/speed
endif

# The driver of lab $(LAB) that a tree name picks: solutionN for solutions, else labN.
driver_of = $(if $(filter solutions,$(1)),solution,lab)$(LAB)

# make profile LAB=N VARIANT=slug [N_SIZE=2^24] [PREV=slug|none] [ARGS='--type i64']:
# the variant under Nsight Compute next to the step before it (tools/profile.sh).
# The reference ./solutionN in the instructor's tree, ./labN in a student copy;
# SOURCE=labs or SOURCE=solutions picks one.
PROFILE_BIN = $(call driver_of,$(or $(SOURCE),$(SOURCE_TREE)))
profile: $(PROFILE_BIN)
	@bash tools/profile.sh ./$(PROFILE_BIN) '$(VARIANT)' '$(N_SIZE)' '$(PREV)' $(ARGS)

# The student's ./labN by default; SOURCE=solutions checks the reference.
SANITIZE_BIN = $(call driver_of,$(SOURCE))
sanitize: $(SANITIZE_BIN)
	@bash tools/sanitize.sh ./$(SANITIZE_BIN) $(SANITIZE_ARGS)

# ---- the course as a web site ----------------------------------------------------------
# The browser test runs in make test when Chromium, pandoc and Python 3 are present.
CHROMIUM_FOUND := $(shell command -v chromium chromium-browser google-chrome 2>/dev/null | head -1)
SITE_TOOLS_FOUND := $(and $(CHROMIUM_FOUND),$(shell command -v pandoc 2>/dev/null),$(shell command -v python3 2>/dev/null))
ifeq ($(SITE_TEST),0)
SITE_TEST_RUN := true
else ifeq ($(SITE_TOOLS_FOUND),)
SITE_TEST_RUN := echo "site test not run: it needs pandoc, Python 3 and Chromium (make deps installs them; SITE_TEST=0 silences this)"
else
SITE_TEST_RUN := $(MAKE) --no-print-directory site-test
endif

site:
	@bash tools/site.sh site

site-test: site
	@python3 tools/site/check.py site $(BUILD)/site-test

# ---- measurements and charts ------------------------------------------------------------
bench: all
	@bash tools/bench.sh

plots:
	@bash tools/plots.sh

# Results tables in the lectures, notebooks and sheets are generated from plots/data
# (tools/tables.py): `make tables` fills every marked block, `make check-tables` (CI)
# fails when a committed table differs from what its CSV gives.
TABLE_DOCS = $(wildcard lectures/*.md lectures/notebooks/*.md $(SOURCE_TREE)/lab*-*/README.md)
tables:
	@python3 tools/tables.py $(TABLE_DOCS)

check-tables:
	@python3 tools/tables.py --check $(TABLE_DOCS) && echo "tables match plots/data"

# Figures drawn from the kit's own traces must still match the code that prints
# them (CI): lab 4's Merge Path grid (plots/lab4_merge_path_grid.gp).
ifeq ($(SOURCE_TREE),solutions)
check-figures: solution4
	@./solution4 --trace | awk -f plots/lab4_trace.awk | cmp -s - plots/data/lab4_trace.csv || \
	  { echo "plots/data/lab4_trace.csv is stale: ./solution4 --trace | awk -f plots/lab4_trace.awk > plots/data/lab4_trace.csv, then make plots" >&2; exit 1; }
	@echo "figures match the traces of the code"
endif

# Every file under plots/data must be named somewhere outside it (CI).
check-data:
	@bash tools/check-data.sh

# ---- starter code and the student copy (the instructor's tree only) ---------------------
ifeq ($(SOURCE_TREE),solutions)
labs:
	@bash tools/mklabs.sh solutions labs

check-labs: labs
	@if [ -n "$$(git status --porcelain labs/)" ]; then \
	  git status --porcelain labs/; \
	  echo "labs/ is stale: run 'make labs' and commit the result (never edit labs/ by hand)"; exit 1; \
	else echo "labs/ matches solutions/"; fi

# Packs the student copy, then unpacks it alone and runs every command its pages
# give a student (tools/student-check.sh).
dist:
	@bash tools/dist.sh
else
# A student copy has no solutions/: say so instead of failing obscurely.
STUDENT_COPY_REFUSES := labs check-labs dist grade-submission $(addprefix solution,$(LAB_NUMS))
$(STUDENT_COPY_REFUSES):
	@echo "make $@: this is a student copy (no solutions/): '$@' is for the instructor's tree" >&2; exit 2
endif

clean:
	rm -rf $(BUILD) dist site $(addprefix lab,$(LAB_NUMS)) $(addprefix solution,$(LAB_NUMS))


-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
