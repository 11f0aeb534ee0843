/* options.c: command-line options shared by every lab, plus each lab's own flags.
 * Parsing touches no CUDA state: --help and --list work without a GPU. */
#include "kit.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Parse a non-negative decimal number at *p, advancing p. */
static int parse_decimal(const char **p, unsigned long long *out)
{
    if (!isdigit((unsigned char)**p))
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(*p, &end, 10);
    if (errno == ERANGE)
        return -1;
    *p = end;
    *out = v;
    return 0;
}

int kit_parse_size(const char *text, size_t *out)
{
    if (!text || !*text)
        return -1;
    const char *p = text;
    unsigned long long base;
    if (parse_decimal(&p, &base))
        return -1;
    unsigned long long value = base;
    if (*p == '^' || (p[0] == '<' && p[1] == '<')) {
        /* 2^K or 1<<K */
        int caret = *p == '^';
        p += caret ? 1 : 2;
        unsigned long long k;
        if (parse_decimal(&p, &k))
            return -1;
        if (caret && base != 2)
            return -1;
        if (!caret && base != 1)
            return -1;
        if (k >= 8 * sizeof(size_t))
            return -1;
        value = 1ull << k;
        if (*p == '+' || *p == '-') {
            int minus = *p == '-';
            p++;
            unsigned long long delta;
            if (parse_decimal(&p, &delta))
                return -1;
            if (minus) {
                if (delta > value)
                    return -1;
                value -= delta;
            } else {
                if (value + delta < value)
                    return -1;
                value += delta;
            }
        }
    }
    if (*p != '\0' || value > (unsigned long long)SIZE_MAX)
        return -1;
    *out = (size_t)value;
    return 0;
}

const kit_variant_info *kit_variant_at(kit_variant_list list, int i)
{
    return (const kit_variant_info *)((const char *)list.first + (size_t)i * list.stride);
}

int kit_variant_find(kit_variant_list list, const char *slug)
{
    for (int i = 0; i < list.count; i++)
        if (strcmp(kit_variant_at(list, i)->slug, slug) == 0)
            return i;
    return -1;
}

int kit_variant_selected(const kit_options *opt, const char *slug)
{
    return strcmp(opt->variant, "all") == 0 || strcmp(opt->variant, slug) == 0;
}

void kit_print_variants(const kit_lab *lab, FILE *to)
{
    for (int i = 0; i < lab->variants.count; i++) {
        const kit_variant_info *v = kit_variant_at(lab->variants, i);
        fprintf(to, "  %-22s step %-5s %s\n", v->slug, v->step, v->idea);
    }
}

void kit_print_usage(const kit_lab *lab, FILE *to)
{
    fprintf(to, "usage: %s [options]\n%s\n\n", lab->name, lab->title);
    fprintf(to, "options:\n"
                "  --n N            problem size in %s (default %zu; accepts 2^K, 2^K+M, 1<<K)\n"
                "  --sweep          run every power of two from 2^10 to 2^28 (up to the lab's limit)\n"
                "  --variant SLUG   run one variant (default: all); see --list\n"
                "  --list           list the variants and exit\n"
                "  --reps R         timed repetitions, median reported (default 20, 1..10000)\n"
                "  --warmup W       untimed runs before timing (default 3, 0..1000)\n"
                "  --budget S       seconds one row may take: fewer runs once spent, marked in the\n"
                "                   table and the CSV's runs column (default 10; 0 = no limit)\n"
                "  --csv FILE       also write the rows as CSV to FILE (GPU name in the header)\n"
                "  --seed S         seed of the input data (default 1)\n"
                "  --device D       CUDA device to use (default 0)\n"
                "  --help           show this text\n",
            lab->n_unit, lab->default_n);
    if (kit_emulated())
        fprintf(to, "                   (this build runs on the CPU emulator: --n defaults to at most %zu and\n"
                    "                   --sweep stops there; results are checked, nothing is timed)\n",
                KIT_EMU_MAX_DEFAULT_N);
    if (lab->dists) {
        fprintf(to, "  --dist D         input distribution (default %s): ", lab->dists[0]);
        for (int i = 0; lab->dists[i]; i++)
            fprintf(to, "%s%s", i ? ", " : "", lab->dists[i]);
        fprintf(to, "\n");
        if (lab->dist_help)
            fprintf(to, "                   %s\n", lab->dist_help);
    }
    for (const kit_flag *f = lab->flags; f && f->name; f++) {
        char left[64];
        snprintf(left, sizeof left, "%s%s%s", f->name, f->metavar ? " " : "",
                 f->metavar ? f->metavar : "");
        fprintf(to, "  %-16s %s\n", left, f->help);
    }
    fprintf(to, "\nvariants:\n");
    kit_print_variants(lab, to);
    fprintf(to, "\nexit status: 0 all checked variants pass, 1 a wrong result, "
                "2 usage/CUDA error/no GPU, 3 some variant still TODO\n");
}

static int fail(char *err, size_t err_len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_len, fmt, ap);
    va_end(ap);
    return -1;
}

/* Whole-string decimal integer (may be negative). */
static int parse_int(const char *text, long long *out)
{
    if (!text || !*text)
        return -1;
    errno = 0;
    char *end;
    long long v = strtoll(text, &end, 10);
    if (errno == ERANGE || *end != '\0')
        return -1;
    *out = v;
    return 0;
}

static int parse_int_in(const char *flag, const char *text, long long lo, long long hi,
                        long long *out, char *err, size_t err_len)
{
    if (parse_int(text, out))
        return fail(err, err_len, "%s expects an integer, got '%s'", flag, text);
    if (*out < lo || *out > hi)
        return fail(err, err_len, "%s must be in %lld..%lld, got %lld", flag, lo, hi, *out);
    return 0;
}

static int parse_size_in(const char *flag, const char *text, size_t lo, size_t hi, size_t *out,
                         char *err, size_t err_len)
{
    if (kit_parse_size(text, out))
        return fail(err, err_len, "%s expects a size such as 1000000, 2^20 or 2^20+7, got '%s'",
                    flag, text);
    if (*out < lo || *out > hi)
        return fail(err, err_len, "%s must be in %zu..%zu, got %zu", flag, lo, hi, *out);
    return 0;
}

static int parse_lab_flag(const kit_flag *f, const char *value, char *err, size_t err_len)
{
    switch (f->kind) {
    case KIT_FLAG_SIZE:
        return parse_size_in(f->name, value, (size_t)f->min, (size_t)f->max, (size_t *)f->target,
                             err, err_len);
    case KIT_FLAG_INT:
        return parse_int_in(f->name, value, f->min, f->max, (long long *)f->target, err, err_len);
    case KIT_FLAG_STRING:
        *(const char **)f->target = value;
        return 0;
    case KIT_FLAG_SWITCH:
        *(int *)f->target = 1;
        return 0;
    }
    return fail(err, err_len, "%s: unknown flag kind", f->name);
}

int kit_parse_options(const kit_lab *lab, int argc, char **argv, kit_options *opt, char *err,
                      size_t err_len)
{
    memset(opt, 0, sizeof *opt);
    opt->n = kit_emulated() && lab->default_n > KIT_EMU_MAX_DEFAULT_N ? KIT_EMU_MAX_DEFAULT_N : lab->default_n;
    opt->reps = 20;
    opt->warmup = 3;
    opt->budget_s = 10;
    opt->variant = "all";
    opt->seed = 1;
    opt->dist = lab->dists ? lab->dists[0] : "-";
    err[0] = '\0';

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        /* flags without a value */
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            opt->help = 1;
            return 1;
        }
        if (strcmp(a, "--list") == 0) { opt->list = 1; continue; }
        if (strcmp(a, "--sweep") == 0) { opt->sweep = 1; continue; }

        const kit_flag *lab_flag = NULL;
        for (const kit_flag *f = lab->flags; f && f->name; f++)
            if (strcmp(a, f->name) == 0)
                lab_flag = f;
        if (lab_flag && lab_flag->kind == KIT_FLAG_SWITCH) {
            *(int *)lab_flag->target = 1;
            continue;
        }

        /* everything else takes a value */
        int known = lab_flag || !strcmp(a, "--n") || !strcmp(a, "--reps") ||
                    !strcmp(a, "--warmup") || !strcmp(a, "--budget") || !strcmp(a, "--variant") || !strcmp(a, "--csv") ||
                    !strcmp(a, "--seed") || !strcmp(a, "--dist") || !strcmp(a, "--device");
        if (!known)
            return fail(err, err_len, "unknown option '%s'", a);
        if (i + 1 >= argc)
            return fail(err, err_len, "%s needs a value", a);
        const char *v = argv[++i];
        long long x;

        if (lab_flag) {
            if (parse_lab_flag(lab_flag, v, err, err_len))
                return -1;
        } else if (!strcmp(a, "--n")) {
            if (parse_size_in(a, v, 0, lab->max_n, &opt->n, err, err_len))
                return -1;
        } else if (!strcmp(a, "--reps")) {
            if (parse_int_in(a, v, 1, 10000, &x, err, err_len))
                return -1;
            opt->reps = (int)x;
        } else if (!strcmp(a, "--warmup")) {
            if (parse_int_in(a, v, 0, 1000, &x, err, err_len))
                return -1;
            opt->warmup = (int)x;
        } else if (!strcmp(a, "--budget")) {
            if (parse_int_in(a, v, 0, 86400, &x, err, err_len))
                return -1;
            opt->budget_s = (double)x;
        } else if (!strcmp(a, "--variant")) {
            if (strcmp(v, "all") && kit_variant_find(lab->variants, v) < 0)
                return fail(err, err_len, "unknown variant '%s' (see --list)", v);
            opt->variant = v;
        } else if (!strcmp(a, "--csv")) {
            if (!*v)
                return fail(err, err_len, "--csv needs a file name");
            opt->csv_path = v;
        } else if (!strcmp(a, "--seed")) {
            if (parse_int_in(a, v, 0, (long long)(~0ull >> 1), &x, err, err_len))
                return -1;
            opt->seed = (uint64_t)x;
        } else if (!strcmp(a, "--dist")) {
            int found = 0;
            for (int d = 0; lab->dists && lab->dists[d]; d++) {
                size_t len = strlen(lab->dists[d]);
                /* "kwarp:K" style entries match any value after the colon; the lab
                 * validates the value itself. */
                if (!strcmp(v, lab->dists[d]) ||
                    (lab->dists[d][len - 1] == ':' && !strncmp(v, lab->dists[d], len)))
                    found = 1;
            }
            if (!found)
                return fail(err, err_len, "unknown distribution '%s'", v);
            opt->dist = v;
        } else { /* --device */
            if (parse_int_in(a, v, 0, 1024, &x, err, err_len))
                return -1;
            opt->device = (int)x;
        }
    }
    return 0;
}

void kit_usage_error(const kit_lab *lab, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", lab->name);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n\n");
    va_end(ap);
    kit_print_usage(lab, stderr);
    exit(KIT_EXIT_USAGE);
}

void kit_options_or_exit(const kit_lab *lab, int argc, char **argv, kit_options *opt)
{
    char err[256];
    int r = kit_parse_options(lab, argc, argv, opt, err, sizeof err);
    if (r < 0)
        kit_usage_error(lab, "%s", err);
    if (r == 1) {
        kit_print_usage(lab, stdout);
        exit(KIT_EXIT_OK);
    }
    if (opt->list) {
        kit_print_variants(lab, stdout);
        exit(KIT_EXIT_OK);
    }
}

int kit_sizes(const kit_options *opt, const kit_lab *lab, size_t *sizes)
{
    if (!opt->sweep) {
        sizes[0] = opt->n;
        return 1;
    }
    int count = 0;
    for (int k = 10; k <= 28; k++)
        if (((size_t)1 << k) <= lab->max_n && (!kit_emulated() || ((size_t)1 << k) <= KIT_EMU_MAX_DEFAULT_N))
            sizes[count++] = (size_t)1 << k;
    return count;
}
