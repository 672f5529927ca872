#define _GNU_SOURCE
#include "CSupport.h"
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

// libcurl is opened on first use rather than linked: linking it makes the dynamic loader
// map and relocate libcurl and its ~50 dependencies (OpenSSL, Kerberos, LDAP, ...) at every
// start, about a third of a tool's start-up, even for `--help` or a database-only query.
static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    void (*easy_reset)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl;
static char load_error[512];
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

// The one place that says which library is opened at run time. A dlopen'd library is not in
// the binary's NEEDED list, so packaging tools cannot see it; the binary declares it in an
// ELF note instead (".note.dlopen", the FDO dlopen metadata format also used by systemd),
// which bin/package reads to put the library's package in Depends.
#define CURL_SONAME "libcurl.so.4"
#define DLOPEN_NOTE_JSON                                                                  \
    "[{\"soname\":[\"" CURL_SONAME "\"],\"feature\":\"http\","                             \
    "\"description\":\"HTTP(S) requests to Flickr and image downloads\",\"priority\":\"required\"}]"
__attribute__((used, retain, section(".note.dlopen"), aligned(4)))
static const struct {
    uint32_t name_size, description_size, type;
    char name[4];
    char description[(sizeof DLOPEN_NOTE_JSON + 3) & ~3];  // padded to 4 bytes, as notes are
} dlopen_note = {4, sizeof DLOPEN_NOTE_JSON, 0x407c0c0a, "FDO", DLOPEN_NOTE_JSON};

static void load(void) {
    // Referenced from here so the linker keeps the note wherever this code is kept (gold's
    // --gc-sections ignores the "retain" flag).
    __asm__ volatile("" : : "r"(&dlopen_note));
    void *library = dlopen(CURL_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "cannot load libcurl (libcurl4): %s", dlerror());
        return;
    }
#define RESOLVE(field, symbol)                                                            \
    if (!(*(void **)&curl.field = dlsym(library, symbol))) {                              \
        snprintf(load_error, sizeof load_error, "libcurl lacks %s", symbol);              \
        return;                                                                           \
    }
    RESOLVE(global_init, "curl_global_init")
    RESOLVE(easy_init, "curl_easy_init")
    RESOLVE(easy_cleanup, "curl_easy_cleanup")
    RESOLVE(easy_reset, "curl_easy_reset")
    RESOLVE(easy_perform, "curl_easy_perform")
    RESOLVE(easy_setopt, "curl_easy_setopt")
    RESOLVE(easy_getinfo, "curl_easy_getinfo")
    RESOLVE(easy_strerror, "curl_easy_strerror")
    RESOLVE(slist_append, "curl_slist_append")
    RESOLVE(slist_free_all, "curl_slist_free_all")
#undef RESOLVE
    curl.global_init(CURL_GLOBAL_DEFAULT);
}

const char *tr_curl_load(void) {
    pthread_once(&load_once, load);
    return load_error[0] ? load_error : NULL;
}

CURL *tr_curl_easy_init(void) { return curl.easy_init(); }
void tr_curl_easy_cleanup(CURL *handle) { curl.easy_cleanup(handle); }
void tr_curl_easy_reset(CURL *handle) { curl.easy_reset(handle); }
CURLcode tr_curl_easy_perform(CURL *handle) { return curl.easy_perform(handle); }
const char *tr_curl_easy_strerror(CURLcode code) { return curl.easy_strerror(code); }
struct curl_slist *tr_curl_slist_append(struct curl_slist *list, const char *string) { return curl.slist_append(list, string); }
void tr_curl_slist_free_all(struct curl_slist *list) { curl.slist_free_all(list); }

CURLcode tr_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode tr_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode tr_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode tr_curl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode tr_curl_setopt_write_function(CURL *handle, CURLoption option,
                                       size_t (*callback)(char *, size_t, size_t, void *)) {
    return curl.easy_setopt(handle, option, callback);
}

CURLcode tr_curl_setopt_xferinfo_function(CURL *handle, CURLoption option,
                                         int (*callback)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t)) {
    return curl.easy_setopt(handle, option, callback);
}

CURLcode tr_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl.easy_getinfo(handle, info, value);
}

CURLcode tr_curl_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl.easy_getinfo(handle, info, value);
}

static int ofd_range(int fd, int64_t offset, int64_t length, short type, bool wait) {
    struct flock lock;
    memset(&lock, 0, sizeof lock);
    lock.l_type = type;
    lock.l_whence = SEEK_SET;
    lock.l_start = (off_t)offset;
    lock.l_len = (off_t)length;
    lock.l_pid = 0;  // required to be 0 for OFD locks
    for (;;) {
        if (fcntl(fd, wait ? F_OFD_SETLKW : F_OFD_SETLK, &lock) == 0) return 0;
        if (errno != EINTR) return errno;
    }
}

int tr_ofd_lock(int fd, int64_t offset, bool exclusive, bool wait) {
    return ofd_range(fd, offset, 1, exclusive ? F_WRLCK : F_RDLCK, wait);
}

int tr_ofd_unlock(int fd, int64_t offset) {
    return ofd_range(fd, offset, 1, F_UNLCK, false);
}

int tr_ofd_try_lock_whole(int fd) {
    return ofd_range(fd, 0, 0, F_WRLCK, false);
}

// SQLite counts every allocation in global statistics behind a mutex (SQLITE_CONFIG_MEMSTATUS,
// on by default), which nothing here reads; a load makes millions of allocations. It can
// only be turned off before SQLite initializes, i.e. before the first connection opens.
#include <sqlite3.h>
int tr_sqlite_memstatus_off(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

int tr_sqlite_no_checkpoint_on_close(void *db) {
    return sqlite3_db_config((sqlite3 *)db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}

// mallopt(M_MMAP_THRESHOLD, bytes): blocks of at least `bytes` are mapped, and unmapped when
// freed, always (glibc otherwise raises the threshold at the first such free). <malloc.h> is
// not in Swift's Glibc module.
#include <malloc.h>
int tr_malloc_mmap_threshold(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes);
}

// mallopt(M_ARENA_MAX, arenas): at most that many malloc arenas (glibc's default is eight per
// core, each keeping what was freed in it).
int tr_malloc_arena_max(int arenas) {
    return mallopt(M_ARENA_MAX, arenas);
}

// malloc_trim(0): gives the kernel back every whole free page of the heap, the middle of it
// included (madvise), not only its top.
int tr_malloc_trim(void) {
    return malloc_trim(0);
}

// Between fork and exec the child calls only async-signal-safe functions: the parent has
// other threads, whose locks (malloc's included) may be held at the moment of the fork.
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
int tr_spawn_dying_with_parent(const char *path, char *const argv[], char *const envp[], int input, int output,
                               int keep_fd, int death_signal, int new_session, pid_t *pid) {
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) return errno;
    pid_t parent = getpid();
    // No handler of this process may run in the child before exec.
    sigset_t all, before;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &before);
    pid_t child = fork();
    if (child == 0) {
        if (prctl(PR_SET_PDEATHSIG, death_signal) != 0) goto failed;
        // The parent ended before the line above: nobody would send the signal.
        if (getppid() != parent) _exit(127);
        if (new_session && setsid() < 0) goto failed;
        if (input != STDIN_FILENO && dup2(input, STDIN_FILENO) < 0) goto failed;
        if (output != STDOUT_FILENO && dup2(output, STDOUT_FILENO) < 0) goto failed;
        if (keep_fd >= 0) {
            int flags = fcntl(keep_fd, F_GETFD);
            if (flags < 0 || fcntl(keep_fd, F_SETFD, flags & ~FD_CLOEXEC) != 0) goto failed;
        }
        // As from a shell: SIGPIPE at its default (this process ignores it), no signal blocked.
        struct sigaction standard;
        memset(&standard, 0, sizeof standard);
        standard.sa_handler = SIG_DFL;
        sigaction(SIGPIPE, &standard, NULL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        execve(path, argv, envp);
    failed:;
        int error = errno;
        ssize_t ignored = write(report[1], &error, sizeof error);
        (void)ignored;
        _exit(127);
    }
    int forkError = errno;
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    close(report[1]);
    if (child < 0) {
        close(report[0]);
        return forkError;
    }
    // The pipe closes at exec (nothing to read) or carries why the child could not start.
    int error = 0;
    ssize_t count;
    do {
        count = read(report[0], &error, sizeof error);
    } while (count < 0 && errno == EINTR);
    close(report[0]);
    if (count == (ssize_t)sizeof error) {
        while (waitpid(child, NULL, 0) < 0 && errno == EINTR) {}
        return error;
    }
    *pid = child;
    return 0;
}

int tr_nice_this_thread(int nice) {
    // Linux: PRIO_PROCESS with a thread id sets that thread's nice value alone.
    pid_t tid = (pid_t)syscall(SYS_gettid);
    return setpriority(PRIO_PROCESS, (id_t)tid, nice) == 0 ? 0 : errno;
}

int tr_name_this_thread(const char *name) {
    return pthread_setname_np(pthread_self(), name);
}
