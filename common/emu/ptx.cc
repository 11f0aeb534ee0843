/* ptx.cc: inline PTX, interpreted. The kit keeps inline PTX in a few helpers (the
 * relaxed/acquire/release loads and stores of the look-back statuses, a warp vote,
 * an L2 prefetch); tools/emu-rewrite.cc turns each asm statement into a call here
 * with its operands. Each snippet is compiled once (registers numbered, operands
 * resolved) and then run; an instruction the interpreter does not know stops the
 * program with its file:line.
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

enum ptx_op { P_LD, P_ST, P_NOP, P_FENCE, P_MOV, P_NOT, P_AND, P_OR, P_XOR, P_ADD, P_SUB, P_SHL, P_SHR,
              P_SETP, P_SELP, P_VOTE, P_ACTIVEMASK };
enum ptx_cmp { C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE };

/* An operand: a register slot (the asm operands %0.. come first) or an immediate. */
struct ptx_arg {
    int reg = -1; /* -1: immediate */
    uint64_t imm = 0;
    bool negate = false; /* !p */
};

/* Operands in place (an instruction has at most five), so running one reads no heap. */
struct ptx_args {
    ptx_arg item[6];
    int count = 0;
    void push_back(const ptx_arg &a)
    {
        if (count == 6)
            fatal("an inline PTX instruction with more than six operands");
        item[count++] = a;
    }
    void push_front(const ptx_arg &a)
    {
        push_back(a);
        for (int k = count - 1; k > 0; k--)
            item[k] = item[k - 1];
        item[0] = a;
    }
    const ptx_arg &operator[](int k) const { return item[k]; }
    int size() const { return count; }
};

struct ptx_insn {
    ptx_op op = P_NOP;
    int width = 8, lanes = 1;
    unsigned order = 0; /* ACC_ACQUIRE, ACC_RELEASE */
    ptx_cmp cmp = C_EQ;
    bool is_signed = false;
    collective vote = COLL_BALLOT;
    int guard = -1;
    bool guard_negate = false;
    ptx_args dst, src; /* ld/st: the address is src[0] (+ offset) */
    int64_t offset = 0;
};

struct ptx_program {
    std::vector<ptx_insn> code;
    int regs = 0;
};

static std::string trim(const std::string &s)
{
    size_t b = s.find_first_not_of(" \t\n\r"), e = s.find_last_not_of(" \t\n\r");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

struct ptx_compiler {
    const char *file, *code;
    int line, operands;
    std::map<std::string, int> names;
    int next;

    [[noreturn]] void fail(const std::string &what)
    {
        fatal("%s:%d: the inline PTX \"%s\": %s (common/emu/ptx.cc knows the kit's own instructions)", file, line,
              code, what.c_str());
    }
    ptx_arg arg(std::string a)
    {
        ptx_arg r;
        a = trim(a);
        if (!a.empty() && a[0] == '!') {
            r.negate = true;
            a = trim(a.substr(1));
        }
        if (a.empty())
            fail("an empty operand");
        if (a[0] == '%' && isdigit((unsigned char)a[1])) {
            r.reg = atoi(a.c_str() + 1);
            if (r.reg >= operands)
                fail(format("operand %s of %d", a.c_str(), operands));
        } else if (isdigit((unsigned char)a[0]) || a[0] == '-') {
            r.imm = strtoull(a.c_str(), nullptr, 0);
        } else {
            auto it = names.find(a);
            r.reg = it != names.end() ? it->second : (names[a] = next++);
        }
        return r;
    }
    ptx_args list(std::string a)
    {
        a = trim(a);
        if (!a.empty() && a[0] == '{')
            a = a.substr(1, a.size() - 2);
        ptx_args v;
        size_t p = 0;
        for (size_t q; (q = a.find(',', p)) != std::string::npos; p = q + 1)
            v.push_back(arg(a.substr(p, q - p)));
        v.push_back(arg(a.substr(p)));
        return v;
    }
    void address(ptx_insn &in, std::string a)
    {
        a = trim(a);
        if (a.size() < 2 || a[0] != '[' || a.back() != ']')
            fail("an address must be [reg] or [reg+offset]");
        a = a.substr(1, a.size() - 2);
        size_t plus = a.find('+');
        if (plus != std::string::npos)
            in.offset = (int64_t)strtoll(trim(a.substr(plus + 1)).c_str(), nullptr, 0);
        in.src.push_front(arg(a.substr(0, plus)));
    }

    ptx_insn compile(std::string s)
    {
        ptx_insn in;
        if (s[0] == '@') {
            size_t sp = s.find_first_of(" \t");
            ptx_arg g = arg(s.substr(1, sp - 1));
            in.guard = g.reg;
            in.guard_negate = g.negate;
            s = trim(s.substr(sp));
        }
        size_t sp = s.find_first_of(" \t");
        std::string opcode = s.substr(0, sp), rest = sp == std::string::npos ? "" : s.substr(sp);
        std::vector<std::string> parts;
        for (size_t p = 0, q; p <= opcode.size(); p = q + 1) {
            q = opcode.find('.', p);
            if (q == std::string::npos)
                q = opcode.size();
            parts.push_back(opcode.substr(p, q - p));
        }
        std::vector<std::string> args;
        std::string cur;
        int depth = 0;
        for (char c : rest + ",") {
            depth += (c == '[' || c == '{') - (c == ']' || c == '}');
            if (c == ',' && depth == 0) {
                if (!trim(cur).empty())
                    args.push_back(cur);
                cur.clear();
            } else {
                cur += c;
            }
        }
        auto has = [&](const char *q) {
            for (const std::string &p : parts)
                if (p == q)
                    return true;
            return false;
        };
        for (const std::string &p : parts)
            if (p.size() >= 2 && strchr("busf", p[0]) && isdigit((unsigned char)p[1]))
                in.width = atoi(p.c_str() + 1) / 8;
        auto need = [&](size_t n) {
            if (args.size() != n)
                fail(format("%s takes %zu operands", opcode.c_str(), n));
        };
        const std::string &o = parts[0];
        static const std::map<std::string, ptx_op> simple = {
            { "mov", P_MOV }, { "cvt", P_MOV }, { "not", P_NOT }, { "and", P_AND }, { "or", P_OR },
            { "xor", P_XOR }, { "add", P_ADD }, { "sub", P_SUB }, { "shl", P_SHL }, { "shr", P_SHR },
        };
        if (o == "ld" || o == "st") {
            need(2);
            in.op = o == "ld" ? P_LD : P_ST;
            in.lanes = has("v2") ? 2 : has("v4") ? 4 : 1;
            in.order = has("acquire") ? ACC_ACQUIRE : has("release") ? ACC_RELEASE : 0;
            ptx_args values = list(args[o == "ld" ? 0 : 1]);
            if (values.size() != in.lanes)
                fail("a vector operand of the wrong length");
            (o == "ld" ? in.dst : in.src) = values;
            address(in, args[o == "ld" ? 1 : 0]);
        } else if (o == "cp" || o == "prefetch" || o == "prefetchu") { /* L2 prefetches: a hint */
            in.op = P_NOP;
        } else if (o == "fence" || o == "membar") {
            in.op = P_FENCE;
        } else if (simple.count(o)) {
            in.op = simple.at(o);
            need(in.op == P_MOV || in.op == P_NOT ? 2 : 3);
            in.dst.push_back(arg(args[0]));
            for (size_t k = 1; k < args.size(); k++)
                in.src.push_back(arg(args[k]));
        } else if (o == "setp" && parts.size() >= 3) {
            static const std::map<std::string, ptx_cmp> cmps = { { "eq", C_EQ }, { "ne", C_NE }, { "lt", C_LT },
                                                                 { "le", C_LE }, { "gt", C_GT }, { "ge", C_GE } };
            if (!cmps.count(parts[1]))
                fail("setp." + parts[1]);
            need(3);
            in.op = P_SETP;
            in.cmp = cmps.at(parts[1]);
            in.is_signed = parts.back()[0] == 's';
            in.dst.push_back(arg(args[0]));
            in.src.push_back(arg(args[1]));
            in.src.push_back(arg(args[2]));
        } else if (o == "selp") {
            need(4);
            in.op = P_SELP;
            in.dst.push_back(arg(args[0]));
            in.src.push_back(arg(args[1]));
            in.src.push_back(arg(args[2]));
            in.src.push_back(arg(args[3]));
        } else if (o == "vote" && (has("ballot") || has("any") || has("all"))) {
            need(3);
            in.op = P_VOTE;
            in.vote = has("ballot") ? COLL_BALLOT : has("any") ? COLL_ANY : COLL_ALL;
            in.dst.push_back(arg(args[0]));
            in.src.push_back(arg(args[1]));
            in.src.push_back(arg(args[2]));
        } else if (o == "activemask") {
            need(1);
            in.op = P_ACTIVEMASK;
            in.dst.push_back(arg(args[0]));
        } else {
            fail("the instruction '" + opcode + "' is not emulated");
        }
        return in;
    }

    ptx_program compile_all()
    {
        ptx_program prog;
        next = operands;
        /* Braces that open a statement or close at depth 0 are scopes (the kit's snippets
         * use unique register names, so scopes can be flattened); the others are
         * vector operands. */
        std::string text = code;
        int depth = 0;
        std::string stmt;
        for (char c : text + ";") {
            if (c == ';' && depth == 0) {
                std::string s = trim(stmt);
                stmt.clear();
                if (!s.empty() && s[0] != '.') /* .reg declarations */
                    prog.code.push_back(compile(s));
                continue;
            }
            if ((c == '{' && trim(stmt).empty()) || (c == '}' && depth == 0))
                continue;
            if (c == '{')
                depth++;
            if (c == '}')
                depth--;
            stmt += c;
        }
        prog.regs = next;
        return prog;
    }
};

static uint64_t value_of(const ptx_arg &a, const uint64_t *regs)
{
    uint64_t v = a.reg >= 0 ? regs[a.reg] : a.imm;
    return a.negate ? !v : v;
}

static uint64_t load(uintptr_t a, int bytes, unsigned order, const char *file, int line)
{
    access(a, (size_t)bytes, ACC_ATOMIC | order, nullptr, file, line);
    switch (bytes) {
    case 1: return __atomic_load_n((uint8_t *)a, __ATOMIC_SEQ_CST);
    case 2: return __atomic_load_n((uint16_t *)a, __ATOMIC_SEQ_CST);
    case 4: return __atomic_load_n((uint32_t *)a, __ATOMIC_SEQ_CST);
    default: return __atomic_load_n((uint64_t *)a, __ATOMIC_SEQ_CST);
    }
}

static void store(uintptr_t a, int bytes, uint64_t v, unsigned order, const char *file, int line)
{
    access(a, (size_t)bytes, ACC_ATOMIC | ACC_WRITE | order, nullptr, file, line);
    switch (bytes) {
    case 1: __atomic_store_n((uint8_t *)a, (uint8_t)v, __ATOMIC_SEQ_CST); break;
    case 2: __atomic_store_n((uint16_t *)a, (uint16_t)v, __ATOMIC_SEQ_CST); break;
    case 4: __atomic_store_n((uint32_t *)a, (uint32_t)v, __ATOMIC_SEQ_CST); break;
    default: __atomic_store_n((uint64_t *)a, v, __ATOMIC_SEQ_CST); break;
    }
}

static void run(const ptx_insn &in, uint64_t *regs, const char *file, int line)
{
    if (in.guard >= 0 && (regs[in.guard] != 0) == in.guard_negate)
        return;
    const uint64_t mask = in.width >= 8 ? ~0ull : (1ull << (8 * in.width)) - 1;
    auto src = [&](int k) { return value_of(in.src[k], regs); };
    auto set = [&](uint64_t v) { regs[in.dst.item[0].reg] = v; };
    switch (in.op) {
    case P_LD:
    case P_ST: {
        uintptr_t a = (uintptr_t)(src(0) + (uint64_t)in.offset);
        uint64_t first = 0;
        for (int k = 0; k < in.lanes; k++) {
            if (k > 0) /* the halves of a pair travel apart */
                sync_point(file, line);
            uintptr_t at = a + (size_t)k * (size_t)in.width;
            if (in.op == P_LD) {
                uint64_t v = load(at, in.width, in.order, file, line);
                regs[in.dst.item[k].reg] = v;
                if (k == 0)
                    first = v;
            } else {
                store(at, in.width, value_of(in.src[k + 1], regs) & mask, in.order, file, line);
            }
        }
        if (in.op == P_LD) /* a load that sees the same value again is a poll */
            polled(a, first);
        else /* after a store, another block may run */
            sync_point(file, line);
        return;
    }
    case P_NOP: return;
    case P_FENCE: sync_point(file, line); return;
    case P_MOV: set(src(0) & mask); return;
    case P_NOT: set(~src(0) & mask); return;
    case P_AND: set(src(0) & src(1) & mask); return;
    case P_OR: set((src(0) | src(1)) & mask); return;
    case P_XOR: set((src(0) ^ src(1)) & mask); return;
    case P_ADD: set((src(0) + src(1)) & mask); return;
    case P_SUB: set((src(0) - src(1)) & mask); return;
    case P_SHL: set((src(0) << (src(1) & 63)) & mask); return;
    case P_SHR: set((src(0) & mask) >> (src(1) & 63)); return;
    case P_SETP: {
        uint64_t a = src(0) & mask, b = src(1) & mask;
        int shift = 64 - 8 * in.width;
        int64_t sa = (int64_t)(a << shift) >> shift, sb = (int64_t)(b << shift) >> shift;
        bool lt = in.is_signed ? sa < sb : a < b, eq = a == b;
        bool r = in.cmp == C_EQ ? eq : in.cmp == C_NE ? !eq : in.cmp == C_LT ? lt : in.cmp == C_LE ? lt || eq
               : in.cmp == C_GT ? !lt && !eq : !lt;
        set(r);
        return;
    }
    case P_SELP: set(src(2) ? src(0) : src(1)); return;
    case P_VOTE: set(warp_collective(in.vote, (unsigned)src(1), src(0) != 0, 4, 0, 32, file, line)); return;
    case P_ACTIVEMASK: set(active_mask()); return;
    }
}

void ptx_exec(const char *file, int line, const char *code, ptx_operand *ops, int count)
{
    static std::map<const char *, ptx_program> compiled;
    static const char *last_code = nullptr; /* a helper is called in a loop: skip the lookup */
    static const ptx_program *last = nullptr;
    if (code != last_code) {
        auto it = compiled.find(code);
        if (it == compiled.end())
            it = compiled.emplace(code, ptx_compiler{ file, code, line, count, {}, 0 }.compile_all()).first;
        last_code = code;
        last = &it->second;
    }
    const ptx_program &prog = *last;
    uint64_t regs[64];
    if (prog.regs > 64)
        fatal("%s:%d: an inline PTX snippet with more than 64 registers", file, line);
    for (int k = 0; k < count; k++)
        regs[k] = ops[k].value;
    for (const ptx_insn &in : prog.code)
        run(in, regs, file, line);
    for (int k = 0; k < count; k++)
        if (ops[k].out)
            memcpy(ops[k].out, &regs[k], (size_t)ops[k].size);
}

} // namespace kit_emu
