#ifndef TOPREGIONS_CSUPPORT_H
#define TOPREGIONS_CSUPPORT_H

#include <curl/curl.h>
#include <stdint.h>
#include <stdbool.h>

// curl_easy_setopt is variadic, which Swift cannot call. One typed entry point per kind of
// argument libcurl takes (long, string, pointer, callback, off_t).
CURLcode tr_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode tr_curl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode tr_curl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode tr_curl_setopt_write_function(CURL *handle, CURLoption option,
                                       size_t (*callback)(char *, size_t, size_t, void *));
CURLcode tr_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode tr_curl_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value);
CURLcode tr_curl_getinfo_string(CURL *handle, CURLINFO info, const char **value);

// Open-file-description byte-range locks (F_OFD_SETLK/F_OFD_SETLKW). Unlike flock or POSIX
// record locks they belong to the open file, so two threads of one process exclude each
// other, and the kernel drops them when the process dies (kill -9 included).
// Returns 0 on success, otherwise an errno value (EAGAIN/EACCES when `wait` is false and the
// range is held elsewhere).
int tr_ofd_lock(int fd, int64_t offset, bool exclusive, bool wait);
int tr_ofd_unlock(int fd, int64_t offset);

#endif
