/* ptx.cc: inline PTX, interpreted. The kit keeps inline PTX in a few helpers (the
 * relaxed/acquire/release loads and stores of the look-back statuses, a warp vote,
 * an L2 prefetch); tools/emu-rewrite.cc turns each asm statement into a call here
 * with its operands. The interpreter knows the instructions those helpers use and
 * names any other at its file:line.
 *
 * Memory instructions go through the emulator's checks; a load that keeps seeing
 * the same value lets other threads run (a poll), and a 128-bit store or load of
 * two 64-bit halves (st/ld .v2.u64) is done half by half with a chance for other
 * threads to run in between, so a reader can see a torn pair as a GPU may. */
#include "emu.h"

#include <ctype.h>
#include <string.h>

#include <map>

namespace kit_emu {

struct ptx_insn {
    std::string guard; /* predicate register, "" for none */
    bool negate = false;
    std::vector<std::string> op;   /* opcode split at '.' */
    std::vector<std::string> args; /* operands, braces kept for vectors */
};

static std::string trim(const std::string &s)
{
    size_t b = s.find_first_not_of(" \t\n\r"), e = s.find_last_not_of(" \t\n\r");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

static std::vector<ptx_insn> parse(const char *code, const char *file, int line)
{
    std::vector<ptx_insn> out;
    std::string text = code;
    for (char &c : text)
        if (c == '{' || c == '}')
            c = ' '; /* scopes: register names are unique within the kit's snippets */
    size_t at = 0;
    while (at < text.size()) {
        size_t end = text.find(';', at);
        if (end == std::string::npos)
            end = text.size();
        std::string s = trim(text.substr(at, end - at));
        at = end + 1;
        if (s.empty() || s[0] == '.') /* .reg declarations */
            continue;
        ptx_insn in;
        if (s[0] == '@') {
            size_t sp = s.find_first_of(" \t");
            in.guard = s.substr(1, sp - 1);
            if (!in.guard.empty() && in.guard[0] == '!') {
                in.negate = true;
                in.guard = in.guard.substr(1);
            }
            s = trim(s.substr(sp));
        }
        size_t sp = s.find_first_of(" \t");
        std::string opcode = s.substr(0, sp), rest = sp == std::string::npos ? "" : s.substr(sp);
        for (size_t p = 0, q; p <= opcode.size(); p = q + 1) {
            q = opcode.find('.', p);
            if (q == std::string::npos)
                q = opcode.size();
            in.op.push_back(opcode.substr(p, q - p));
        }
        std::string arg;
        int depth = 0;
        for (char c : rest + ",") {
            if (c == '[' || c == '(')
                depth++;
            if (c == ']' || c == ')')
                depth--;
            if (c == ',' && depth == 0) {
                if (!trim(arg).empty())
                    in.args.push_back(trim(arg));
                arg.clear();
            } else {
                arg += c;
            }
        }
        if (in.op.empty() || in.op[0].empty())
            fatal("%s:%d: cannot read the inline PTX \"%s\"", file, line, code);
        out.push_back(in);
    }
    return out;
}

struct ptx_machine {
    const char *file;
    int line;
    ptx_operand *ops;
    int count;
    std::map<std::string, uint64_t> regs;

    [[noreturn]] void unsupported(const ptx_insn &in)
    {
        std::string name;
        for (const std::string &p : in.op)
            name += (name.empty() ? "" : ".") + p;
        fatal("%s:%d: the inline PTX instruction '%s' is not emulated (common/emu/ptx.cc knows the kit's own)", file,
              line, name.c_str());
    }
    uint64_t value(const std::string &a)
    {
        if (a[0] == '%' && isdigit((unsigned char)a[1])) {
            int k = atoi(a.c_str() + 1);
            if (k >= count)
                fatal("%s:%d: inline PTX names operand %%%d of %d", file, line, k, count);
            auto it = regs.find(a);
            return it != regs.end() ? it->second : ops[k].value;
        }
        if (isdigit((unsigned char)a[0]) || a[0] == '-')
            return strtoull(a.c_str(), nullptr, 0);
        return regs[a];
    }
    void set(const std::string &a, uint64_t v) { regs[a] = v; }
    bool has(const ptx_insn &in, const char *q) const
    {
        for (const std::string &p : in.op)
            if (p == q)
                return true;
        return false;
    }
    int width_of(const ptx_insn &in) const
    {
        for (const std::string &p : in.op)
            if (p.size() >= 2 && strchr("busf", p[0]) && isdigit((unsigned char)p[1]))
                return atoi(p.c_str() + 1) / 8;
        return 8;
    }
    std::vector<std::string> vector_of(const std::string &a) const
    {
        std::vector<std::string> v;
        std::string s = a;
        if (!s.empty() && s[0] == '{') {
            s = s.substr(1, s.size() - 2);
        }
        size_t p = 0;
        for (size_t q; (q = s.find(',', p)) != std::string::npos; p = q + 1)
            v.push_back(trim(s.substr(p, q - p)));
        v.push_back(trim(s.substr(p)));
        return v;
    }
    uintptr_t address(const std::string &a)
    {
        std::string inner = trim(a.substr(1, a.size() - 2));
        size_t plus = inner.find('+');
        uint64_t off = plus == std::string::npos ? 0 : strtoull(trim(inner.substr(plus + 1)).c_str(), nullptr, 0);
        return (uintptr_t)(value(trim(inner.substr(0, plus))) + off);
    }
    uint64_t load(uintptr_t a, int bytes, unsigned flags)
    {
        access(a, (size_t)bytes, ACC_ATOMIC | flags, nullptr, file, line);
        uint64_t v = 0;
        switch (bytes) {
        case 1: v = __atomic_load_n((uint8_t *)a, __ATOMIC_SEQ_CST); break;
        case 2: v = __atomic_load_n((uint16_t *)a, __ATOMIC_SEQ_CST); break;
        case 4: v = __atomic_load_n((uint32_t *)a, __ATOMIC_SEQ_CST); break;
        default: v = __atomic_load_n((uint64_t *)a, __ATOMIC_SEQ_CST); break;
        }
        return v;
    }
    void store(uintptr_t a, int bytes, uint64_t v, unsigned flags)
    {
        access(a, (size_t)bytes, ACC_ATOMIC | ACC_WRITE | flags, nullptr, file, line);
        switch (bytes) {
        case 1: __atomic_store_n((uint8_t *)a, (uint8_t)v, __ATOMIC_SEQ_CST); break;
        case 2: __atomic_store_n((uint16_t *)a, (uint16_t)v, __ATOMIC_SEQ_CST); break;
        case 4: __atomic_store_n((uint32_t *)a, (uint32_t)v, __ATOMIC_SEQ_CST); break;
        default: __atomic_store_n((uint64_t *)a, v, __ATOMIC_SEQ_CST); break;
        }
    }

    void run(const ptx_insn &in)
    {
        if (!in.guard.empty() && (regs[in.guard] != 0) == in.negate)
            return;
        const std::string &o = in.op[0];
        const int w = width_of(in);
        const uint64_t mask = w >= 8 ? ~0ull : (1ull << (8 * w)) - 1;
        if (o == "ld" || o == "st") {
            int lanes = has(in, "v2") ? 2 : has(in, "v4") ? 4 : 1;
            unsigned order = has(in, "acquire") ? ACC_ACQUIRE : has(in, "release") ? ACC_RELEASE : 0;
            const std::string &mem = o == "ld" ? in.args.at(1) : in.args.at(0);
            std::vector<std::string> vals = vector_of(o == "ld" ? in.args.at(0) : in.args.at(1));
            uintptr_t a = address(mem);
            uint64_t first = 0;
            for (int k = 0; k < lanes; k++) {
                if (k > 0) /* the halves of a pair travel apart */
                    sync_point(file, line);
                if (o == "ld") {
                    uint64_t v = load(a + (size_t)k * w, w, order);
                    set(vals.at(k), v);
                    if (k == 0)
                        first = v;
                } else {
                    store(a + (size_t)k * w, w, value(vals.at(k)) & mask, order);
                }
            }
            if (o == "ld")
                polled(a, first);
            else if (order || has(in, "relaxed"))
                sync_point(file, line);
            return;
        }
        if (o == "cp" || o == "prefetch" || o == "prefetchu") /* L2 prefetches: a hint, nothing lands */
            return;
        if (o == "fence" || o == "membar") {
            sync_point(file, line);
            return;
        }
        if (o == "mov" || o == "cvt") {
            set(in.args.at(0), value(in.args.at(1)) & mask);
            return;
        }
        if (o == "not") {
            set(in.args.at(0), ~value(in.args.at(1)) & mask);
            return;
        }
        if (o == "and" || o == "or" || o == "xor" || o == "add" || o == "sub" || o == "shl" || o == "shr") {
            uint64_t a = value(in.args.at(1)), b = value(in.args.at(2)), r = 0;
            if (o == "and")
                r = a & b;
            else if (o == "or")
                r = a | b;
            else if (o == "xor")
                r = a ^ b;
            else if (o == "add")
                r = a + b;
            else if (o == "sub")
                r = a - b;
            else if (o == "shl")
                r = a << (b & 63);
            else
                r = (a & mask) >> (b & 63);
            set(in.args.at(0), r & mask);
            return;
        }
        if (o == "setp") {
            uint64_t a = value(in.args.at(1)) & mask, b = value(in.args.at(2)) & mask;
            bool is_signed = in.op.back()[0] == 's';
            int64_t sa = (int64_t)(a << (64 - 8 * w)) >> (64 - 8 * w), sb = (int64_t)(b << (64 - 8 * w)) >> (64 - 8 * w);
            const std::string &c = in.op.at(1);
            bool r = c == "eq" ? a == b
                   : c == "ne" ? a != b
                   : c == "lt" ? (is_signed ? sa < sb : a < b)
                   : c == "le" ? (is_signed ? sa <= sb : a <= b)
                   : c == "gt" ? (is_signed ? sa > sb : a > b)
                   : c == "ge" ? (is_signed ? sa >= sb : a >= b)
                               : (unsupported(in), false);
            set(in.args.at(0), r);
            return;
        }
        if (o == "selp") {
            set(in.args.at(0), value(in.args.at(3)) ? value(in.args.at(1)) : value(in.args.at(2)));
            return;
        }
        if (o == "vote") {
            std::string pred = in.args.at(1);
            bool neg = pred[0] == '!';
            bool p = (value(neg ? pred.substr(1) : pred) != 0) != neg;
            unsigned m = (unsigned)value(in.args.at(2));
            collective k = has(in, "ballot") ? COLL_BALLOT : has(in, "any") ? COLL_ANY : has(in, "all") ? COLL_ALL
                                                                                                         : (unsupported(in), COLL_BALLOT);
            set(in.args.at(0), warp_collective(k, m, p, 4, 0, 32, file, line));
            return;
        }
        if (o == "activemask") {
            set(in.args.at(0), active_mask());
            return;
        }
        unsupported(in);
    }
};

void ptx_exec(const char *file, int line, const char *code, ptx_operand *ops, int count)
{
    static std::map<const char *, std::vector<ptx_insn>> parsed;
    auto it = parsed.find(code);
    if (it == parsed.end())
        it = parsed.emplace(code, parse(code, file, line)).first;
    ptx_machine m{ file, line, ops, count, {} };
    for (const ptx_insn &in : it->second)
        m.run(in);
    for (int k = 0; k < count; k++)
        if (ops[k].out) {
            auto r = m.regs.find(format("%%%d", k));
            if (r != m.regs.end())
                memcpy(ops[k].out, &r->second, (size_t)ops[k].size);
        }
}

} // namespace kit_emu
