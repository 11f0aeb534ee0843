/* util.cc: the emulator's settings, its random numbers and its messages. */
#include "emu.h"

#include <cxxabi.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <map>

namespace kit_emu {

static long env_long(const char *name, long fallback, long lo, long hi)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return fallback;
    char *end = nullptr;
    long x = strtol(v, &end, 0);
    if (*end || x < lo || x > hi)
        fatal("%s=%s: expected a number from %ld to %ld", name, v, lo, hi);
    return x;
}

const settings &config()
{
    static settings s;
    static bool ready = false;
    if (!ready) {
        ready = true;
        s.gpus = (int)env_long("KIT_EMU_GPUS", 2, 1, MAX_GPUS);
        s.sms = (int)env_long("KIT_EMU_SMS", 2, 1, 64);
        s.stack_bytes = (size_t)env_long("KIT_EMU_STACK_KB", 256, 32, 65536) * 1024;
        s.memory_bytes = (size_t)env_long("KIT_EMU_MEMORY_MIB", 8192, 64, 1 << 20) << 20;
        s.hang_s = (double)env_long("KIT_EMU_HANG_S", 120, 1, 86400);
        s.preempt = (int)env_long("KIT_EMU_PREEMPT", 4, 0, 1 << 20);
        const char *seed = getenv("KIT_EMU_SEED");
        if (seed && *seed) {
            char *end = nullptr;
            s.seed = strtoull(seed, &end, 0);
            if (*end)
                fatal("KIT_EMU_SEED=%s: expected a number", seed);
        } else {
            s.seed = 1;
        }
    }
    return s;
}

uint64_t random_u64()
{
    static uint64_t state = 0;
    static bool seeded = false;
    if (!seeded) {
        seeded = true;
        state = config().seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
    }
    /* splitmix64 */
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

std::string format(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = nullptr;
    int n = vasprintf(&s, fmt, ap);
    va_end(ap);
    std::string r = n >= 0 ? s : "";
    free(s);
    return r;
}

static std::string last_report;

static void say(const char *fmt, va_list ap)
{
    char *s = nullptr;
    if (vasprintf(&s, fmt, ap) >= 0) {
        last_report = s;
        fflush(stdout);
        fprintf(stderr, "kit emulator: %s\n", s);
        fflush(stderr);
    }
    free(s);
}

void note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say(fmt, ap);
    va_end(ap);
}

void fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say(fmt, ap);
    va_end(ap);
    _exit(2);
}

/* Frames of code at pc from addr2line (binutils, present wherever the compiler is):
 * (function, file:line) pairs, innermost first, the inlined ones included. */
static std::vector<std::pair<std::string, std::string>> frames_at(const void *pc, bool return_address)
{
    std::vector<std::pair<std::string, std::string>> frames;
    Dl_info info;
    if (!dladdr(pc, &info) || !info.dli_fname)
        return frames;
    uintptr_t offset = (uintptr_t)pc - (return_address ? 1 : 0) - (uintptr_t)info.dli_fbase;
    /* The main program is named as it was started, which need not be a path
     * (Criterion's workers are "boxfort-worker"). */
    static char self[4096];
    if (!self[0] && readlink("/proc/self/exe", self, sizeof self - 1) < 0)
        self[0] = 0;
    const char *file = ::access(info.dli_fname, R_OK) == 0 ? info.dli_fname : self;
    std::string cmd = format("addr2line -C -f -i -e '%s' 0x%lx 2>/dev/null", file, (unsigned long)offset);
    FILE *p = popen(cmd.c_str(), "r");
    if (!p)
        return frames;
    static std::string cwd;
    if (cwd.empty()) {
        char buf[4096];
        cwd = getcwd(buf, sizeof buf) ? std::string(buf) + "/" : "/";
    }
    char fn[4096], at[4096];
    while (fgets(fn, sizeof fn, p) && fgets(at, sizeof at, p)) {
        fn[strcspn(fn, "\n")] = at[strcspn(at, "\n")] = 0;
        if (char *disc = strstr(at, " (discriminator"))
            *disc = 0;
        if (strncmp(at, "??", 2) == 0)
            continue;
        std::string place = at;
        if (place.compare(0, cwd.size(), cwd) == 0)
            place = place.substr(cwd.size());
        frames.emplace_back(fn, place);
    }
    pclose(p);
    return frames;
}

std::string function_name(const void *fn)
{
    static std::map<const void *, std::string> known;
    auto hit = known.find(fn);
    if (hit != known.end())
        return hit->second;
    std::string &name = known[fn];
    Dl_info info;
    if (dladdr(fn, &info) && info.dli_sname) {
        int status = 0;
        char *nice = abi::__cxa_demangle(info.dli_sname, nullptr, nullptr, &status);
        name = status == 0 && nice ? nice : info.dli_sname;
        free(nice);
        return name;
    }
    auto frames = frames_at(fn, false);
    return name = frames.empty() ? format("%p", fn) : frames.back().first;
}

std::string caller_place(const void *pc)
{
    auto frames = frames_at(pc, true);
    return frames.empty() ? format("%p", pc) : frames.back().second;
}

/* file:line of the code at pc (a return address), with the frames it was inlined into. */
std::string where_is(const void *pc)
{
    static std::map<const void *, std::string> known;
    auto hit = known.find(pc);
    if (hit != known.end())
        return hit->second;
    auto frames = frames_at(pc, true);
    std::string r;
    for (size_t i = 0; i < frames.size() && i < 4; i++)
        r += i ? format(", inlined into %s", frames[i].second.c_str()) : frames[i].second;
    if (r.empty())
        r = format("%p", pc);
    known[pc] = r;
    return r;
}

} // namespace kit_emu

extern "C" const char *kitEmuLastReport(void) { return kit_emu::last_report.c_str(); }
