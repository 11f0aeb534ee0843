/* lab6_team.c: the GPUs of the ring. NCCL communicators (one process for every GPU,
 * or one process per GPU), the lanes (streams) and events the launchers use, peer
 * access between the GPUs of this process, and the fork/join that lets events on one
 * stream time the work of every GPU.
 *
 * One process per GPU needs NCCL's unique id (128 bytes made by rank 0) in every
 * process before ncclCommInitRank. MPI_Bcast is the usual way; this lab passes it
 * through a file instead (rank 0 writes it, the others wait for it), so the same
 * binary builds without an MPI development package and runs under mpirun, srun, or
 * as processes started by hand. Between hosts the file must be on a shared file
 * system (--id-file). */
#include "lab6.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int lab6_nccl_check_(ncclResult_t r, const char *what, const char *file, int line)
{
    if (r == ncclSuccess)
        return 0;
    const char *detail = ncclGetLastError(NULL);
    fprintf(stderr, "NCCL error at %s:%d: %s: %s%s%s\n", file, line, what, ncclGetErrorString(r),
            detail && *detail ? ": " : "", detail ? detail : "");
    return LAB6_ERR_NCCL;
}

static int fail(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
    return 1;
}

/* NVLink multicast (NVLS) stays off: on a shared host, a program that uses it can put
 * every GPU of the host out of service. Set before the first NCCL call; a value the
 * environment already has wins. Nothing in the lab calls cuMulticastCreate. */
static void keep_nvls_off(void) { setenv("NCCL_NVLS_ENABLE", "0", 0); }

int lab6_use(const lab6_team *t, int l) { return KIT_CHECK(cudaSetDevice(t->device[l])); }

/* Lanes, events and device facts of every local GPU. */
static int open_lanes(lab6_team *t, char *why, size_t len)
{
    int steps = lab6_ring_steps(t->gpus);
    size_t events = (size_t)(steps > 1 ? steps : 1) * LAB6_MAX_CHUNKS;
    for (int l = 0; l < t->local; l++) {
        struct cudaDeviceProp prop;
        if (lab6_use(t, l) || KIT_CHECK(cudaGetDeviceProperties(&prop, t->device[l])))
            return fail(why, len, "cannot use CUDA device %d", t->device[l]);
        t->sms[l] = prop.multiProcessorCount;
        size_t used = strlen(t->names);
        snprintf(t->names + used, sizeof t->names - used, "%s%s", l ? ", " : "", prop.name);
        t->step_done[l] = kit_host_alloc(events * sizeof(cudaEvent_t), "the ring's events");
        int r = 0;
        /* Non-blocking lanes: no implicit waits on the legacy default stream, whose
         * synchronous calls could otherwise stall a GPU whose NCCL kernel waits for a
         * peer. Every order between lanes is an explicit event. */
        for (int k = 0; k < LAB6_LANES && !r; k++)
            r = KIT_CHECK(cudaStreamCreateWithFlags(&t->lane[l][k], cudaStreamNonBlocking)) ||
                KIT_CHECK(cudaEventCreateWithFlags(&t->joined[l][k], cudaEventDisableTiming));
        for (size_t e = 0; e < events && !r; e++)
            r = KIT_CHECK(cudaEventCreateWithFlags(&t->step_done[l][e], cudaEventDisableTiming));
        if (r)
            return fail(why, len, "cannot create streams and events on device %d", t->device[l]);
    }
    if (lab6_use(t, 0) || KIT_CHECK(cudaEventCreateWithFlags(&t->fork, cudaEventDisableTiming)))
        return fail(why, len, "cannot create an event on device %d", t->device[0]);
    return 0;
}

/* Let every local GPU read every other's memory (NVLink or PCIe), if the system can.
 * Returns 1 when this process drives the whole ring and every pair has access. */
static int enable_peer_access(lab6_team *t)
{
    int all = t->local == t->gpus;
    for (int a = 0; a < t->local; a++)
        for (int b = 0; b < t->local; b++) {
            int can = 0;
            if (a == b)
                continue;
            if (cudaDeviceCanAccessPeer(&can, t->device[a], t->device[b]) != cudaSuccess || !can) {
                all = 0;
                continue;
            }
            if (lab6_use(t, a))
                return 0;
            cudaError_t e = cudaDeviceEnablePeerAccess(t->device[b], 0);
            if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled) /* already: an earlier team did it */
                all = 0;
            cudaGetLastError(); /* neither error is sticky: leave none behind */
        }
    return all;
}

int lab6_team_open(lab6_team *t, int first_device, int G, char *why, size_t len)
{
    memset(t, 0, sizeof *t);
    keep_nvls_off();
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)
        return fail(why, len, "no CUDA-capable GPU found");
    if (G < 1 || G > LAB6_MAX_LOCAL)
        return fail(why, len, "one process drives 1..%d GPUs, not %d", LAB6_MAX_LOCAL, G);
    if (first_device < 0 || first_device + G > count)
        return fail(why, len, "%d GPU(s) from device %d asked for, but %d present", G, first_device, count);
    t->gpus = t->local = G;
    for (int l = 0; l < G; l++)
        t->device[l] = first_device + l;
    if (open_lanes(t, why, len))
        return 1;
    if (LAB6_NCCL(ncclCommInitAll(t->comm, G, t->device)))
        return fail(why, len, "ncclCommInitAll on %d GPU(s) failed (see above)", G);
    t->peer_access = enable_peer_access(t);
    if (lab6_use(t, 0))
        return fail(why, len, "cannot use device %d", t->device[0]);
    return 0;
}

static int write_id_file(const char *path, const ncclUniqueId *id)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        return -1;
    int bad = write(fd, id, sizeof *id) != (ssize_t)sizeof *id || fsync(fd) != 0;
    bad |= close(fd) != 0;
    /* rename is atomic: a reader sees no file or the whole id */
    return bad || rename(tmp, path) != 0 ? -1 : 0;
}

static int read_id_file(const char *path, ncclUniqueId *id, int timeout_s)
{
    struct timespec pause = { 0, 20 * 1000 * 1000 };
    for (long waited_ms = 0; waited_ms < 1000L * timeout_s; waited_ms += 20) {
        int fd = open(path, O_RDONLY);
        if (fd >= 0) {
            ssize_t got = read(fd, id, sizeof *id);
            close(fd);
            if (got == (ssize_t)sizeof *id)
                return 0;
        }
        nanosleep(&pause, NULL);
    }
    return -1;
}

int lab6_team_open_rank(lab6_team *t, int rank, int ranks, int device, const char *id_file, char *why,
                        size_t len)
{
    memset(t, 0, sizeof *t);
    keep_nvls_off();
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)
        return fail(why, len, "no CUDA-capable GPU found");
    if (ranks < 1 || rank < 0 || rank >= ranks)
        return fail(why, len, "rank %d of %d processes does not exist", rank, ranks);
    if (device < 0 || device >= count)
        return fail(why, len, "rank %d wants device %d, but %d present", rank, device, count);
    t->gpus = ranks;
    t->local = 1;
    t->rank0 = rank;
    t->device[0] = device;
    if (open_lanes(t, why, len))
        return 1;
    ncclUniqueId id;
    enum { WAIT_S = 120 };
    if (rank == 0) {
        if (LAB6_NCCL(ncclGetUniqueId(&id)))
            return fail(why, len, "ncclGetUniqueId failed (see above)");
        if (write_id_file(id_file, &id))
            return fail(why, len, "rank 0 cannot write NCCL's id to %s", id_file);
    } else if (read_id_file(id_file, &id, WAIT_S)) {
        return fail(why, len, "rank %d waited %d s for NCCL's id in %s (rank 0 writes it; same --id-file for every"
                    " process, on a file system they share)", rank, (int)WAIT_S, id_file);
    }
    int r = LAB6_NCCL(ncclCommInitRank(&t->comm[0], ranks, id, rank));
    if (rank == 0)
        unlink(id_file); /* every rank has joined, so every rank has read it */
    if (r)
        return fail(why, len, "ncclCommInitRank (rank %d of %d) failed (see above)", rank, ranks);
    t->peer_access = ranks == 1;
    return 0;
}

void lab6_team_close(lab6_team *t)
{
    int steps = lab6_ring_steps(t->gpus);
    size_t events = (size_t)(steps > 1 ? steps : 1) * LAB6_MAX_CHUNKS;
    for (int l = 0; l < t->local; l++) {
        if (t->comm[l])
            ncclCommDestroy(t->comm[l]);
        cudaSetDevice(t->device[l]);
        for (int k = 0; k < LAB6_LANES; k++) {
            if (t->lane[l][k])
                cudaStreamDestroy(t->lane[l][k]);
            if (t->joined[l][k])
                cudaEventDestroy(t->joined[l][k]);
        }
        for (size_t e = 0; t->step_done[l] && e < events; e++)
            if (t->step_done[l][e])
                cudaEventDestroy(t->step_done[l][e]);
        free(t->step_done[l]);
    }
    if (t->fork) {
        cudaSetDevice(t->device[0]);
        cudaEventDestroy(t->fork);
    }
    memset(t, 0, sizeof *t);
}

static int env_int(const char *name, int *out)
{
    const char *v = getenv(name);
    char *end;
    if (!v || !*v)
        return 0;
    long x = strtol(v, &end, 10);
    if (*end || x < 0 || x > 1 << 24)
        return 0;
    *out = (int)x;
    return 1;
}

int lab6_launcher_env(int *rank, int *ranks, int *local_rank, char *job, size_t job_len)
{
    /* rank, size, rank on this host, job id: Open MPI, MPICH / Intel MPI (Hydra), Slurm */
    static const char *const names[][4] = {
        { "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK", "PMIX_NAMESPACE" },
        { "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID", "PMI_KVSNAME" },
        { "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID", "SLURM_JOB_ID" },
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (!env_int(names[i][0], rank) || !env_int(names[i][1], ranks))
            continue;
        if (!env_int(names[i][2], local_rank))
            *local_rank = *rank;
        /* Processes of one job share the job id, or at least their parent (the
         * launcher's daemon) on one host. */
        const char *id = getenv(names[i][3]);
        if (id && *id)
            snprintf(job, job_len, "%s", id);
        else
            snprintf(job, job_len, "parent%ld", (long)getppid());
        for (char *c = job; *c; c++)
            if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '-'))
                *c = '_';
        return 1;
    }
    return 0;
}

/* `stream` may be 0, the legacy stream of the *current* device: both functions touch
 * it only while local GPU 0 is current. */
int lab6_fork(const lab6_team *t, cudaStream_t stream)
{
    int r = lab6_use(t, 0);
    if (!r)
        r = KIT_CHECK(cudaEventRecord(t->fork, stream));
    for (int l = 0; l < t->local && !r; l++) {
        r = lab6_use(t, l);
        for (int k = 0; k < LAB6_LANES && !r; k++)
            r = KIT_CHECK(cudaStreamWaitEvent(t->lane[l][k], t->fork, 0));
    }
    int back = lab6_use(t, 0);
    return r ? r : back;
}

int lab6_join(const lab6_team *t, cudaStream_t stream)
{
    int r = 0;
    for (int l = 0; l < t->local && !r; l++) {
        r = lab6_use(t, l);
        for (int k = 0; k < LAB6_LANES && !r; k++)
            r = KIT_CHECK(cudaEventRecord(t->joined[l][k], t->lane[l][k]));
    }
    int back = lab6_use(t, 0);
    for (int l = 0; l < t->local && !r && !back; l++)
        for (int k = 0; k < LAB6_LANES && !r; k++)
            r = KIT_CHECK(cudaStreamWaitEvent(stream, t->joined[l][k], 0));
    return r ? r : back;
}

int lab6_needs_one_process(const lab6_team *t, const char *variant)
{
    if (t->local < t->gpus)
        fprintf(stderr, "%s reads the other GPUs' memory directly: every GPU of the ring must be in this process"
                        " (this one drives %d of %d; run it without mpirun)\n", variant, t->local, t->gpus);
    else
        fprintf(stderr, "%s reads the other GPUs' memory directly, but they cannot access each other's memory"
                        " (cudaDeviceCanAccessPeer)\n", variant);
    return LAB6_ERR_ONE_PROCESS;
}
