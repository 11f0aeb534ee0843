/* contain.c: run a program that holds a submission's code where it cannot reach the
 * grade, and make sure that nothing of it outlives the call.
 *
 *   contain [--limit SECONDS] [--log FILE] [--dir DIR] [--keep FD]... [--user NAME]
 *           [--isolation FILE] [--no-namespace] -- COMMAND [ARG...]
 *
 * The command runs in DIR, its output (both streams) in FILE, its input /dev/null,
 * every other descriptor closed but the --keep ones. As root it runs as NAME (a
 * user, or a number: a user id of its own, which no other grade shares; default
 * nobody): it can write DIR (made its own, mode 0700) and nothing of the grader's,
 * nor of another grade that runs as another id. It runs in a PID and mount
 * namespace of its own with a fresh /proc, so it cannot see the grader's processes,
 * and a /tmp and /dev/shm of its own (unless DIR is under /tmp).
 * Not as root, the same namespaces through a user namespace where the system allows
 * one, else (or with --no-namespace) none: the isolation FILE says which (the
 * reports quote it).
 * After SECONDS (default 600) everything it started is killed. When the command
 * ends, every process it left behind is killed too (contain is their subreaper), so
 * the grader writes its reports only after the last one is gone.
 * Exit status: the command's; 124 when the limit killed it; 128 + N for signal N;
 * 2 for a usage or system error. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_KEEP 16

static void die(const char *fmt, const char *arg)
{
    fprintf(stderr, "contain: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n");
    exit(2);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* Every process whose chain of parents reaches `root`, from /proc. */
static int descendants(pid_t root, pid_t *out, int max)
{
    enum { MAX_PROCS = 65536 };
    static pid_t pid[MAX_PROCS], parent[MAX_PROCS];
    int count = 0, found = 0;
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    for (struct dirent *e; (e = readdir(d)) && count < MAX_PROCS;) {
        char path[300], buf[512];
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        size_t len = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[len] = '\0';
        char *close_paren = strrchr(buf, ')'); /* the name may hold spaces and parentheses */
        int ppid;
        if (close_paren && sscanf(close_paren + 2, "%*c %d", &ppid) == 1) {
            pid[count] = atoi(e->d_name);
            parent[count++] = ppid;
        }
    }
    closedir(d);
    for (int changed = 1; changed;) { /* grow the set until no process joins it */
        changed = 0;
        for (int i = 0; i < count; i++) {
            int in = 0, parent_in = parent[i] == root;
            for (int k = 0; k < found && !(in && parent_in); k++) {
                in |= out[k] == pid[i];
                parent_in |= out[k] == parent[i];
            }
            if (!in && parent_in && found < max) {
                out[found++] = pid[i];
                changed = 1;
            }
        }
    }
    return found;
}

/* Kill everything below us and reap it, until nothing is left. */
static void kill_all(void)
{
    static pid_t left[4096];
    for (int round = 0; round < 1000; round++) {
        int n = descendants(getpid(), left, 4096);
        for (int i = 0; i < n; i++)
            kill(left[i], SIGKILL);
        while (waitpid(-1, NULL, WNOHANG) > 0)
            ;
        if (n == 0 && waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD)
            return;
        usleep(10000);
    }
}

static int write_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        return -1;
    int ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
    close(fd);
    return ok ? 0 : -1;
}

/* A PID and mount namespace for the command (as root directly, else inside a user
 * namespace that maps our own user to root). Returns a description, or NULL; *broken
 * when a user namespace was made but could not be mapped (this process is unusable). */
static const char *new_namespaces(int *broken)
{
    *broken = 0;
    if (geteuid() == 0)
        return unshare(CLONE_NEWPID | CLONE_NEWNS) == 0 ? "own PID namespace and /proc" : NULL;
    uid_t uid = geteuid();
    gid_t gid = getegid();
    if (unshare(CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS))
        return NULL;
    char map[64];
    snprintf(map, sizeof map, "0 %u 1\n", (unsigned)uid);
    *broken = 1;
    if (write_file("/proc/self/setgroups", "deny") || write_file("/proc/self/uid_map", map))
        return NULL;
    snprintf(map, sizeof map, "0 %u 1\n", (unsigned)gid);
    if (write_file("/proc/self/gid_map", map))
        return NULL;
    *broken = 0;
    return "own PID namespace and /proc (a user namespace)";
}

/* In the command's process, before exec: output, descriptors, limits, user. */
static void settle(const char *log, const char *dir, const int *keep, int keep_count, const struct passwd *user,
                   int own_proc)
{
    setsid();
    if (own_proc) {
        /* Our /proc shows only our processes. Our /tmp and /dev/shm are our own too:
         * nothing left there reaches the grader, and programs that name files there
         * by their PID (Criterion's sockets) do not meet another namespace's. A DIR
         * under /tmp keeps the shared /tmp (it would be hidden). */
        mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL);
        mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
        if (!dir || strncmp(dir, "/tmp/", 5)) {
            mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "size=4g,mode=1777");
            mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "size=4g,mode=1777");
        }
    }
    int in = open("/dev/null", O_RDONLY);
    int out = log ? open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644) : dup(1);
    if (in < 0 || out < 0)
        die("cannot open the log %s", log ? log : "(stdout)");
    dup2(in, 0);
    dup2(out, 1);
    dup2(out, 2);
    for (int fd = 3; fd < 1024; fd++) {
        int kept = 0;
        for (int k = 0; k < keep_count; k++)
            kept |= keep[k] == fd;
        if (!kept)
            close(fd);
    }
    /* No core dumps; files up to 32 GiB: a record holds every buffer a case's calls
     * changed (lab 4's partition_shapes, 32 merges of up to 97M keys: 9.2 GB). */
    struct rlimit no_core = { 0, 0 }, files = { 32ull << 30, 32ull << 30 };
    setrlimit(RLIMIT_CORE, &no_core);
    setrlimit(RLIMIT_FSIZE, &files);
    if (user) {
        if (dir && (chown(dir, user->pw_uid, user->pw_gid) || chmod(dir, 0700)))
            die("cannot give %s to the grading user", dir);
        if (setgroups(0, NULL) || setgid(user->pw_gid) || setuid(user->pw_uid))
            die("cannot become user %s", user->pw_name);
    }
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    if (dir && chdir(dir))
        die("cannot enter %s", dir);
}

int main(int argc, char **argv)
{
    double limit = 600;
    const char *log = NULL, *dir = NULL, *user_name = "nobody", *isolation_file = NULL;
    int keep[MAX_KEEP], keep_count = 0, namespaces = 1, i = 1;
    for (; i < argc && strcmp(argv[i], "--"); i++) {
        if (!strcmp(argv[i], "--no-namespace")) {
            namespaces = 0;
            continue;
        }
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (!next)
            die("%s needs a value", argv[i]);
        if (!strcmp(argv[i], "--limit"))
            limit = atof(next);
        else if (!strcmp(argv[i], "--log"))
            log = next;
        else if (!strcmp(argv[i], "--dir"))
            dir = next;
        else if (!strcmp(argv[i], "--user"))
            user_name = next;
        else if (!strcmp(argv[i], "--isolation"))
            isolation_file = next;
        else if (!strcmp(argv[i], "--keep") && keep_count < MAX_KEEP)
            keep[keep_count++] = atoi(next);
        else
            die("unknown option %s (see the usage at the top of tools/grade/contain.c)", argv[i]);
        i++;
    }
    if (i + 1 >= argc || limit <= 0)
        die("%s", "usage: contain [--limit S] [--log F] [--dir D] [--keep FD]... [--user U] [--isolation F] "
                  "[--no-namespace] -- COMMAND...");
    char **command = argv + i + 1;
    const struct passwd *user = NULL;
    static struct passwd own_id; /* --user NUMBER: an id without an entry in /etc/passwd */
    if (geteuid() == 0 && user_name[strspn(user_name, "0123456789")] == '\0') {
        own_id.pw_name = (char *)user_name;
        own_id.pw_uid = own_id.pw_gid = (uid_t)atol(user_name);
        user = &own_id;
    } else if (geteuid() == 0 && !(user = getpwnam(user_name)))
        die("no user %s to run submissions as (--user NAME)", user_name);

    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    char how[256] = "";
    pid_t middle = -1;
    /* First with namespaces; where the system refuses them half way, again without. */
    for (int with_ns = namespaces; with_ns >= 0 && middle < 0; with_ns--) {
        int report[2];
        if (pipe(report))
            die("%s", "cannot make a pipe");
        pid_t pid = fork();
        if (pid < 0)
            die("%s", "cannot fork");
        if (pid == 0) {
            /* The namespaces take effect for the next child: the command. */
            close(report[0]);
            int broken = 0;
            const char *ns = with_ns ? new_namespaces(&broken) : NULL;
            if (broken)
                _exit(3); /* a user namespace without its map: start again without */
            char text[200];
            snprintf(text, sizeof text, "%s%s, %s", user ? "separate user " : "the grader's own user",
                     user ? user->pw_name : "", ns ? ns : "no namespace");
            if (write(report[1], text, strlen(text)) < 0)
                _exit(2);
            close(report[1]);
            pid_t child = fork();
            if (child < 0)
                _exit(2);
            if (child == 0) {
                settle(log, dir, keep, keep_count, user, ns != NULL);
                execvp(command[0], command);
                fprintf(stderr, "contain: cannot run %s: %s\n", command[0], strerror(errno));
                _exit(127);
            }
            int status;
            while (waitpid(child, &status, 0) < 0 && errno == EINTR)
                ;
            _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
        }
        close(report[1]);
        ssize_t got = read(report[0], how, sizeof how - 1);
        how[got > 0 ? got : 0] = '\0';
        close(report[0]);
        if (got > 0)
            middle = pid;
        else
            waitpid(pid, NULL, 0);
    }
    if (middle < 0)
        die("%s", "cannot start the command");
    if (isolation_file) {
        FILE *f = fopen(isolation_file, "w");
        if (f) {
            fprintf(f, "%s\n", how);
            fclose(f);
        }
    }

    double deadline = now() + limit;
    int status = 0, timed_out = 0;
    for (;;) {
        pid_t r = waitpid(middle, &status, WNOHANG);
        if (r == middle)
            break;
        if (now() > deadline) {
            timed_out = 1;
            break;
        }
        usleep(20000);
    }
    kill_all();
    if (timed_out)
        return 124;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
