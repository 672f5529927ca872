#define _GNU_SOURCE
#include "CSupport.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

CURLcode tr_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode tr_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode tr_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode tr_curl_setopt_write_function(CURL *handle, CURLoption option,
                                       size_t (*callback)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(handle, option, callback);
}

CURLcode tr_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode tr_curl_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode tr_curl_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return curl_easy_getinfo(handle, info, value);
}

static int ofd(int fd, int64_t offset, short type, bool wait) {
    struct flock lock;
    memset(&lock, 0, sizeof lock);
    lock.l_type = type;
    lock.l_whence = SEEK_SET;
    lock.l_start = (off_t)offset;
    lock.l_len = 1;
    lock.l_pid = 0;  // required to be 0 for OFD locks
    for (;;) {
        if (fcntl(fd, wait ? F_OFD_SETLKW : F_OFD_SETLK, &lock) == 0) return 0;
        if (errno != EINTR) return errno;
    }
}

int tr_ofd_lock(int fd, int64_t offset, bool exclusive, bool wait) {
    return ofd(fd, offset, exclusive ? F_WRLCK : F_RDLCK, wait);
}

int tr_ofd_unlock(int fd, int64_t offset) {
    return ofd(fd, offset, F_UNLCK, false);
}
