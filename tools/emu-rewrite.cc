// emu-rewrite: turn a CUDA source file into C++ that the kit's CPU emulator
// compiles (common/emu/README.md). Three constructs have no C++ spelling and
// are rewritten; everything else is left to the emulator's headers:
//
//   K<<<grid, block, smem, stream>>>(args)
//       -> K % ::kit_emu::launch_at(__FILE__, __LINE__, grid, block, smem, stream)(args)
//   __shared__ T name[N];            (any number of declarators)
//       -> auto &name = *::kit_emu::shared_var<T[N]>(ALIGN, KEY, "name");
//   extern __shared__ T name[];
//       -> T *const name = ::kit_emu::dynamic_shared<T>(ALIGN);
//   asm volatile("ptx" : "=r"(out) : "r"(in) : "memory")
//       -> ::kit_emu::ptx(__FILE__, __LINE__, "ptx", ::kit_emu::ptx_out(out), ::kit_emu::ptx_in(in))
//
// Every line stays on its line (a message's file:line is the student's), and
// the output starts with a #line directive naming the original file.
// Usage: emu-rewrite INPUT OUTPUT [NAME]   (NAME: the file name for #line and
// messages; default INPUT). Exit status 0, or 2 with "file:line: message".
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string src, name;

[[noreturn]] void fail(size_t at, const std::string &what)
{
    int line = 1;
    for (size_t i = 0; i < at && i < src.size(); i++)
        line += src[i] == '\n';
    std::fprintf(stderr, "%s:%d: kit emulator: %s\n", name.c_str(), line, what.c_str());
    std::exit(2);
}

bool ident_char(char c) { return std::isalnum((unsigned char)c) || c == '_'; }

// The end of the comment, string or character literal that starts at i, or i
// when none starts there.
size_t skip_literal(size_t i)
{
    if (src.compare(i, 2, "//") == 0) {
        size_t e = src.find('\n', i);
        return e == std::string::npos ? src.size() : e;
    }
    if (src.compare(i, 2, "/*") == 0) {
        size_t e = src.find("*/", i + 2);
        if (e == std::string::npos)
            fail(i, "unterminated comment");
        return e + 2;
    }
    if (src[i] == '"' || src[i] == '\'') {
        if (src[i] == '\'' && i > 0 && std::isxdigit((unsigned char)src[i - 1]))
            return i; // a digit separator: 1'000
        char q = src[i];
        size_t j = i + 1;
        while (j < src.size() && src[j] != q) {
            if (src[j] == '\\')
                j++;
            else if (src[j] == '\n')
                fail(i, "unterminated literal");
            j++;
        }
        return j + 1;
    }
    return i;
}

// A preprocessor directive starting at i (first non-blank of its line): its end.
size_t skip_directive(size_t i)
{
    while (i < src.size() && src[i] != '\n') {
        size_t e = skip_literal(i);
        if (e != i) {
            i = e;
            continue;
        }
        if (src[i] == '\\' && i + 1 < src.size() && src[i + 1] == '\n')
            i++;
        i++;
    }
    return i;
}

// From an opening bracket at i, the index of its match (literals skipped).
size_t match_close(size_t i)
{
    std::vector<char> want;
    for (size_t j = i; j < src.size();) {
        size_t e = skip_literal(j);
        if (e != j) {
            j = e;
            continue;
        }
        char c = src[j];
        if (c == '(' || c == '[' || c == '{')
            want.push_back(c == '(' ? ')' : c == '[' ? ']' : '}');
        else if (c == ')' || c == ']' || c == '}') {
            if (want.empty() || want.back() != c)
                fail(j, std::string("unbalanced '") + c + "'");
            want.pop_back();
            if (want.empty())
                return j;
        }
        j++;
    }
    fail(i, "unbalanced bracket");
}

size_t skip_space(size_t i)
{
    for (;;) {
        while (i < src.size() && std::isspace((unsigned char)src[i]))
            i++;
        size_t e = skip_literal(i);
        if (e == i || src[i] == '"' || src[i] == '\'')
            return i;
        i = e;
    }
}

std::string trim(const std::string &s)
{
    size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// Newlines of text, so that a rewritten span keeps its line count.
std::string newlines_of(const std::string &text)
{
    return std::string((size_t)std::count(text.begin(), text.end(), '\n'), '\n');
}

// Splits text at commas outside brackets (and outside template angle brackets
// when angles is set).
std::vector<std::string> split_commas(const std::string &text, bool angles)
{
    std::vector<std::string> parts;
    int depth = 0;
    size_t start = 0;
    for (size_t j = 0; j < text.size(); j++) {
        char c = text[j];
        if (c == '"' || c == '\'') {
            char q = c;
            for (j++; j < text.size() && text[j] != q; j++)
                if (text[j] == '\\')
                    j++;
            continue;
        }
        if (c == '(' || c == '[' || c == '{' || (angles && c == '<'))
            depth++;
        else if (c == ')' || c == ']' || c == '}' || (angles && c == '>'))
            depth--;
        else if (c == ',' && depth == 0) {
            parts.push_back(text.substr(start, j - start));
            start = j + 1;
        }
    }
    parts.push_back(text.substr(start));
    return parts;
}

// "__align__(16) unsigned char buf[]" -> "unsigned char buf[]", align "16".
std::string strip_align(std::string decl, std::string &align, size_t at)
{
    for (size_t p; (p = decl.find("__align__")) != std::string::npos;) {
        size_t open = decl.find('(', p), close = decl.find(')', p);
        if (open == std::string::npos || close == std::string::npos)
            fail(at, "cannot read __align__(...) in a __shared__ declaration");
        align = trim(decl.substr(open + 1, close - open - 1));
        decl.erase(p, close + 1 - p);
    }
    return decl;
}

struct declarator {
    std::string stars, name, dims;
};

// "  *record" or " keys[NV][2]" -> its pointer stars, name and array bounds.
declarator read_declarator(const std::string &text, size_t at)
{
    declarator d;
    size_t bracket = text.find('[');
    std::string head = text.substr(0, bracket == std::string::npos ? text.size() : bracket);
    if (bracket != std::string::npos)
        d.dims = trim(text.substr(bracket));
    size_t e = head.find_last_not_of(" \t\r\n");
    if (e == std::string::npos || !ident_char(head[e]))
        fail(at, "cannot find the name in a __shared__ declaration");
    size_t b = e;
    while (b > 0 && ident_char(head[b - 1]))
        b--;
    d.name = head.substr(b, e + 1 - b);
    d.stars = head.substr(0, b);
    return d;
}

// Rewrites the declaration statement "[extern] __shared__ ... ;" whose text
// (from __shared__ to just before ';') is decl.
std::string rewrite_shared(const std::string &decl_text, bool is_extern, size_t at)
{
    std::string align = "0";
    std::string decl = strip_align(decl_text.substr(std::string("__shared__").size()), align, at);
    if (decl.find('=') != std::string::npos)
        fail(at, "a __shared__ variable cannot have an initializer");
    std::vector<std::string> parts = split_commas(decl, true);
    declarator first = read_declarator(parts[0], at);
    std::string base = trim(first.stars);
    // The pointer stars belong to each declarator, not to the shared base type.
    std::string type = base;
    while (!type.empty() && (type.back() == '*' || type.back() == '&' || type.back() == ' '))
        type.pop_back();
    std::string first_stars = trim(base.substr(type.size()));
    std::string out;
    for (size_t k = 0; k < parts.size(); k++) {
        declarator d = k == 0 ? first : read_declarator(parts[k], at);
        std::string stars = k == 0 ? first_stars : trim(d.stars);
        std::string t = trim(type + " " + stars);
        if (is_extern) {
            if (d.dims != "[]")
                fail(at, "extern __shared__ must be an array of unknown size: T name[]");
            out += t + " *const " + d.name + " = ::kit_emu::dynamic_shared<" + t + ">(" + align + ");";
        } else {
            out += "auto &" + d.name + " = *::kit_emu::shared_var<" + t + (d.dims.empty() ? "" : " " + d.dims) +
                   ">(" + align + ", [] { static const char kit_emu_site = 0; return &kit_emu_site; }(), \"" +
                   d.name + "\");";
        }
        out += " ";
    }
    return out + newlines_of(decl_text);
}

// "r"(expr) -> ::kit_emu::ptx_in(expr), "=r"(x) -> ptx_out(x), "+r"(x) -> ptx_inout(x)
std::string rewrite_operands(const std::string &text, bool outputs, size_t at)
{
    std::string out;
    for (const std::string &part : split_commas(text, false)) {
        std::string op = trim(part);
        if (op.empty())
            continue;
        if (op[0] == '[')
            fail(at, "named asm operands are not emulated");
        size_t q = op.find('"', 1);
        if (op[0] != '"' || q == std::string::npos)
            fail(at, "cannot read an asm operand: " + op);
        std::string constraint = op.substr(1, q - 1);
        std::string expr = trim(op.substr(q + 1));
        const char *fn = !outputs ? "ptx_in" : constraint.find('+') != std::string::npos ? "ptx_inout" : "ptx_out";
        out += std::string(", ::kit_emu::") + fn + expr;
    }
    return out;
}

// asm [volatile] ( template : outputs : inputs : clobbers ) starting at i; the
// statement's parenthesis opens at open.
std::string rewrite_asm(size_t i, size_t open, size_t close)
{
    std::string body = src.substr(open + 1, close - open - 1);
    // Split at top-level colons (outside literals and brackets).
    std::vector<std::string> sections;
    int depth = 0;
    size_t start = 0;
    for (size_t j = 0; j < body.size(); j++) {
        char c = body[j];
        if (c == '"') {
            for (j++; j < body.size() && body[j] != '"'; j++)
                if (body[j] == '\\')
                    j++;
            continue;
        }
        if (c == '(' || c == '[')
            depth++;
        else if (c == ')' || c == ']')
            depth--;
        else if (c == ':' && depth == 0) {
            if (j + 1 < body.size() && body[j + 1] == ':') { // "::" is two empty separators
                sections.push_back(body.substr(start, j - start));
                start = j + 1;
                continue;
            }
            sections.push_back(body.substr(start, j - start));
            start = j + 1;
        }
    }
    sections.push_back(body.substr(start));
    std::string out = "::kit_emu::ptx(__FILE__, __LINE__, " + sections[0];
    if (sections.size() > 1)
        out += rewrite_operands(sections[1], true, i);
    if (sections.size() > 2)
        out += rewrite_operands(sections[2], false, i);
    out += ")";
    for (size_t k = 1; k < sections.size(); k++)
        out += newlines_of(sections[k]);
    return out;
}

std::string rewrite()
{
    std::string out = "#line 1 \"" + name + "\"\n";
    bool line_start = true;
    for (size_t i = 0; i < src.size();) {
        char c = src[i];
        if (line_start && c == '#') {
            size_t e = skip_directive(i);
            out += src.substr(i, e - i);
            i = e;
            continue;
        }
        if (c == '\n')
            line_start = true;
        else if (!std::isspace((unsigned char)c))
            line_start = false;
        size_t e = skip_literal(i);
        if (e != i) {
            out += src.substr(i, e - i);
            i = e;
            continue;
        }
        if (src.compare(i, 3, "<<<") == 0) {
            size_t cfg_end = src.find(">>>", i + 3);
            if (cfg_end == std::string::npos)
                fail(i, "a launch <<< without >>>");
            size_t open = skip_space(cfg_end + 3);
            if (open >= src.size() || src[open] != '(')
                fail(i, "a launch K<<<...>>> must be followed by (arguments)");
            size_t close = match_close(open);
            std::string cfg = src.substr(i + 3, cfg_end - i - 3);
            out += " % ::kit_emu::launch_at(__FILE__, __LINE__, " + cfg + ")" + src.substr(cfg_end + 3, open - cfg_end - 3) +
                   src.substr(open, close + 1 - open);
            i = close + 1;
            continue;
        }
        if (ident_char(c) && (i == 0 || !ident_char(src[i - 1]))) {
            size_t w = i;
            while (w < src.size() && ident_char(src[w]))
                w++;
            std::string word = src.substr(i, w - i);
            bool is_extern = false;
            size_t decl = i;
            if (word == "extern") {
                size_t n = skip_space(w);
                if (src.compare(n, 10, "__shared__") == 0 && (n + 10 >= src.size() || !ident_char(src[n + 10]))) {
                    is_extern = true;
                    out += newlines_of(src.substr(w, n - w));
                    decl = n;
                    word = "__shared__";
                    w = n + 10;
                }
            }
            if (word == "__shared__") {
                size_t j = w;
                while (j < src.size() && src[j] != ';') {
                    size_t l = skip_literal(j);
                    j = l != j ? l : j + 1;
                }
                if (j >= src.size())
                    fail(i, "a __shared__ declaration without ';'");
                out += rewrite_shared(src.substr(decl, j - decl), is_extern, i);
                i = j + 1;
                continue;
            }
            if (word == "asm" || word == "__asm__") {
                size_t open = skip_space(w);
                while (src.compare(open, 8, "volatile") == 0 || src.compare(open, 12, "__volatile__") == 0)
                    open = skip_space(open + (src[open] == 'v' ? 8 : 12));
                if (open < src.size() && src[open] == '(') {
                    size_t close = match_close(open);
                    out += newlines_of(src.substr(i, open - i)) + rewrite_asm(i, open, close);
                    i = close + 1;
                    continue;
                }
            }
            out += word;
            i = w;
            continue;
        }
        out += c;
        i++;
    }
    return out;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4) {
        std::fprintf(stderr, "usage: emu-rewrite INPUT OUTPUT [NAME]\n");
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "emu-rewrite: cannot read %s\n", argv[1]);
        return 2;
    }
    std::stringstream buf;
    buf << in.rdbuf();
    src = buf.str();
    name = argc == 4 ? argv[3] : argv[1];
    std::string out = rewrite();
    std::string tmp = std::string(argv[2]) + ".tmp";
    std::ofstream of(tmp, std::ios::binary);
    of << out;
    of.close();
    if (!of || std::rename(tmp.c_str(), argv[2]) != 0) {
        std::fprintf(stderr, "emu-rewrite: cannot write %s\n", argv[2]);
        return 2;
    }
    return 0;
}
