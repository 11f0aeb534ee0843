/* tools/emu-rewrite.cc, the emulation build's rewriter, on a fixture with every
 * construct it rewrites and the places it must leave alone: every line stays on
 * its line (the emulator's messages name the student's lines). */
#include "kit_test.h"
#include "../cpu/tool_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Line k (1-based) of text, or "" past the end. */
static const char *line_of(const char *text, int k, char *buf, size_t len)
{
    for (int i = 1; i < k && text; i++) {
        text = strchr(text, '\n');
        text = text ? text + 1 : NULL;
    }
    if (!text)
        return "";
    size_t n = strcspn(text, "\n");
    snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), text);
    return buf;
}

/* The whole file, malloc'd, or NULL. */
static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    rewind(f);
    char *text = malloc((size_t)len + 1);
    size_t got = fread(text, 1, (size_t)len, f);
    text[got] = '\0';
    fclose(f);
    return text;
}

static int lines(const char *text)
{
    int n = 0;
    for (; *text; text++)
        n += *text == '\n';
    return n;
}

Test(emu_rewrite, every_construct_keeps_its_line)
{
    const char *root = kit_test_root();
    char in[4200], out[4200];
    snprintf(in, sizeof in, "%s/tests/emu/fixtures/rewrite_input.cu", root);
    snprintf(out, sizeof out, "%s/build/emu/rewrite_fixture.cu", root);
    int status;
    char *output = tool_run(&status, "'%s/build/emu/tools/emu-rewrite' '%s' '%s' fixture.cu", root, in, out);
    cr_assert(eq(int, status, 0), "%s", output);
    char *before = read_file(in), *after = read_file(out), buf[512];
    cr_assert(not(eq(ptr, before, NULL)));
    cr_assert(not(eq(ptr, after, NULL)));
    cr_assert(eq(str, (char *)line_of(after, 1, buf, sizeof buf), "#line 1 \"fixture.cu\""));
    cr_assert(eq(int, lines(after), lines(before) + 1), "one #line, then the same lines");
    /* after the #line, line k of the output is line k of the input */
    cr_assert(not(eq(ptr, strstr(line_of(after, 2, buf, sizeof buf), "k<<<1, 2>>>(x)"), NULL)), "a comment: %s", buf);
    cr_assert(not(eq(ptr, strstr(line_of(after, 6, buf, sizeof buf), "shared_var<T [N]>(16"), NULL)), "%s", buf);
    cr_assert(not(eq(ptr, strstr(buf, "&second = *::kit_emu::shared_var<T [2 * N]>(16"), NULL)), "%s", buf);
    cr_assert(not(eq(ptr, strstr(line_of(after, 7, buf, sizeof buf),
                                 "unsigned char *const dynamic_bytes = ::kit_emu::dynamic_shared<unsigned char>(0)"),
                      NULL)), "%s", buf);
    cr_assert(not(eq(ptr, strstr(line_of(after, 8, buf, sizeof buf), "shared_var<typename T::nested *>"), NULL)), "%s", buf);
    cr_assert(not(eq(ptr, strstr(buf, "&value = *::kit_emu::shared_var<typename T::nested>"), NULL)), "%s", buf);
    cr_assert(not(eq(ptr, strstr(line_of(after, 9, buf, sizeof buf), "<<<3, 4>>>() in it"), NULL)), "a string: %s", buf);
    cr_assert(not(eq(ptr, strstr(line_of(after, 11, buf, sizeof buf), "::kit_emu::ptx(__FILE__, __LINE__, \"{"), NULL)), "%s", buf);
    cr_assert(not(eq(ptr, strstr(line_of(after, 14, buf, sizeof buf), "::kit_emu::ptx_out(agree), ::kit_emu::ptx_in(in[0]))"), NULL)), "%s", buf);
    cr_assert(not(eq(ptr, strstr(line_of(after, 16, buf, sizeof buf), "ptx_in(out), ::kit_emu::ptx_in(agree))"), NULL)), "%s", buf);
    cr_assert(not(eq(ptr, strstr(line_of(after, 21, buf, sizeof buf),
                                 "kernel<int, 128> % ::kit_emu::launch_at(__FILE__, __LINE__, blocks, 128, 0,"),
                      NULL)), "%s", buf);
    cr_assert(not(eq(ptr, strstr(line_of(after, 23, buf, sizeof buf), "out);"), NULL)), "%s", buf);
    free(before);
    free(after);
}

Test(emu_rewrite, what_it_cannot_read_is_refused_with_its_line)
{
    const char *root = kit_test_root();
    char in[64];
    tool_write_temp(in, "void f()\n{\n    k<<<1, 1>>>;\n}\n");
    int status;
    char *output = tool_run(&status, "'%s/build/emu/tools/emu-rewrite' '%s' /dev/null bad.cu", root, in);
    unlink(in);
    cr_assert(eq(int, status, 2), "%s", output);
    cr_assert(not(eq(ptr, strstr(output, "bad.cu:3: kit emulator: a launch K<<<...>>> must be followed by (arguments)"),
                     NULL)), "%s", output);
}
