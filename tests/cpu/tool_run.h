/* tool_run.h: for CPU suites that test the kit's scripts (awk, bash): write an
 * input to a temporary file, run a command line, keep its output and status. */
#ifndef TOOL_RUN_H
#define TOOL_RUN_H

#include "kit_test.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Write text to a fresh temporary file; path receives its name (>= 32 bytes). */
static inline void tool_write_temp(char *path, const char *text)
{
    strcpy(path, "/tmp/kit_tool_XXXXXX");
    int fd = mkstemp(path);
    cr_assert(ge(int, fd, 0));
    cr_assert(eq(sz, (size_t)write(fd, text, strlen(text)), strlen(text)));
    close(fd);
}

/* Run a printf-formatted shell command (stderr joined to stdout); returns its
 * output (static buffer) and stores the exit status in *status. The command sees
 * no outer make's job server (make -j2 test): a make it runs starts afresh. */
static inline char *tool_run(int *status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline char *tool_run(int *status, const char *fmt, ...)
{
    char cmd[16384] = "unset MAKEFLAGS MFLAGS MAKELEVEL; ";
    size_t prefix = strlen(cmd);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd + prefix, sizeof cmd - prefix, fmt, ap);
    va_end(ap);
    strncat(cmd, " 2>&1", sizeof cmd - strlen(cmd) - 1);
    FILE *p = popen(cmd, "r");
    cr_assert(not(eq(ptr, p, NULL)));
    static char out[65536];
    size_t len = fread(out, 1, sizeof out - 1, p);
    out[len] = '\0';
    int s = pclose(p);
    *status = WIFEXITED(s) ? WEXITSTATUS(s) : -1;
    return out;
}

#endif
