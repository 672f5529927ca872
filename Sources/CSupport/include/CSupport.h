#ifndef TOPREGIONS_CSUPPORT_H
#define TOPREGIONS_CSUPPORT_H

#include <curl/curl.h>
#include <stdint.h>
#include <stdbool.h>

// libcurl, opened with dlopen on first use (see shim.c for why). Call tr_curl_load() first:
// it returns NULL when libcurl is ready (and globally initialized), else why it is not.
const char *tr_curl_load(void);

CURL *tr_curl_easy_init(void);
void tr_curl_easy_cleanup(CURL *handle);
void tr_curl_easy_reset(CURL *handle);
CURLcode tr_curl_easy_perform(CURL *handle);
const char *tr_curl_easy_strerror(CURLcode code);
struct curl_slist *tr_curl_slist_append(struct curl_slist *list, const char *string);
void tr_curl_slist_free_all(struct curl_slist *list);

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed
// entry point per kind of argument.
CURLcode tr_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode tr_curl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode tr_curl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode tr_curl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
CURLcode tr_curl_setopt_write_function(CURL *handle, CURLoption option,
                                       size_t (*callback)(char *, size_t, size_t, void *));
// CURLOPT_XFERINFOFUNCTION: called about once a second during a transfer, even while no byte
// arrives; returning non-zero aborts it.
CURLcode tr_curl_setopt_xferinfo_function(CURL *handle, CURLoption option,
                                         int (*callback)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t));
CURLcode tr_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode tr_curl_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value);

// Open-file-description byte-range locks (F_OFD_SETLK/F_OFD_SETLKW). Unlike flock or POSIX
// record locks they belong to the open file, so two threads of one process exclude each
// other, and the kernel drops them when the process dies (kill -9 included).
// Returns 0 on success, otherwise an errno value (EAGAIN/EACCES when `wait` is false and the
// range is held elsewhere). Release it with tr_ofd_unlock, then close the descriptor.
int tr_ofd_lock(int fd, int64_t offset, bool exclusive, bool wait);
// Releases the lock tr_ofd_lock took at `offset`. Closing the descriptor releases it too, but
// not while a child process started meanwhile (posix_spawn, fork) still holds a copy of the
// descriptor, until that child execs or exits. Returns 0 or an errno value.
int tr_ofd_unlock(int fd, int64_t offset);
// Takes an exclusive lock on the whole file (every key at once) if no one holds any part of
// it; 0, or EAGAIN/EACCES when someone does. Closing the descriptor releases it.
int tr_ofd_try_lock_whole(int fd);

// Turns off SQLite's allocation statistics (sqlite3_config is variadic, which Swift cannot
// call). Call it before any connection opens; returns SQLite's result code (0: done,
// 21: too late, SQLite is already initialized).
int tr_sqlite_memstatus_off(void);

// Closing `db` (a sqlite3 *) will not checkpoint its WAL into the database file, nor remove
// the -wal (SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE; sqlite3_db_config is variadic). Returns
// SQLite's result code.
int tr_sqlite_no_checkpoint_on_close(void *db);

// mallopt(M_MMAP_THRESHOLD, bytes): allocations of `bytes` or more are always mapped, and
// given back to the system when freed. Returns 1 on success.
int tr_malloc_mmap_threshold(int bytes);
int tr_malloc_arena_max(int arenas);
int tr_malloc_trim(void);

// Starts the program at `path` as posix_spawn would (standard input from `input`, standard
// output to `output`, SIGPIPE at its default, no signal blocked, every close-on-exec
// descriptor closed), and makes the kernel send it `death_signal` when the thread that
// started it ends (PR_SET_PDEATHSIG), the process killed with -9 included: call it from a
// thread that waits for the child. `keep_fd`, unless -1, stays open in the child (e.g. a
// lock the child then holds too, until it ends). `new_session`: the child starts a session of
// its own (setsid), without a controlling terminal. Returns 0 and the child's pid in `pid`, or
// an errno value (the child's, when it could not exec).
#include <sys/types.h>
int tr_spawn_dying_with_parent(const char *path, char *const argv[], char *const envp[], int input, int output,
                               int keep_fd, int death_signal, int new_session, pid_t *pid);

// Sets the calling thread's nice value (Linux: a thread has one of its own). Returns 0, else
// an errno value.
int tr_nice_this_thread(int nice);

// Names the calling thread (15 bytes at most). Returns 0, else an errno value.
int tr_name_this_thread(const char *name);

#endif
