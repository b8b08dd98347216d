#define _GNU_SOURCE 1
#include "chdf5.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// MARK: - The global HDF5 lock

static pthread_mutex_t fl_lock;
static pthread_once_t fl_lock_once = PTHREAD_ONCE_INIT;

static void fl_make_lock(void) {
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&fl_lock, &attr);
    pthread_mutexattr_destroy(&attr);
}

static void fl_before_fork(void) { pthread_mutex_lock(&fl_lock); }
static void fl_after_fork_parent(void) { pthread_mutex_unlock(&fl_lock); }
// The child's only thread is the one that forked, but a recursive mutex remembers the
// parent's thread id, so it is rebuilt rather than unlocked.
static void fl_after_fork_child(void) { fl_make_lock(); }

static void fl_setup_lock(void) {
    fl_make_lock();
    pthread_atfork(fl_before_fork, fl_after_fork_parent, fl_after_fork_child);
}

void fl_h5_lock(void) {
    pthread_once(&fl_lock_once, fl_setup_lock);
    pthread_mutex_lock(&fl_lock);
}

void fl_h5_unlock(void) { pthread_mutex_unlock(&fl_lock); }

// Runs at process exit before HDF5's own handler (atexit handlers run in reverse
// order, and this one is registered after H5open registered HDF5's). It takes the
// lock and keeps it, so no other thread is inside HDF5 while the library flushes
// and closes the files that are still open.
static void fl_lock_at_exit(void) { fl_h5_lock(); }

// Files closed detached (fl_h5_close_detached) since start-up.
static int fl_detached_count = 0;

// HDF5 1.10 may keep half of a file whose close failed and crash when its exit handler
// closes it (SIGSEGV in H5F__close_cb). After a detached close the process therefore
// ends here, before that handler, with the status it was given: every file that matters
// was closed or detached already; stdio is flushed.
static void fl_skip_hdf5_exit_after_detach(int status, void *unused) {
    (void)unused;
    if (fl_detached_count == 0) return;
    fflush(NULL);
    _exit(status);
}

int fl_h5_init(void) {
    static int done = 0;
    // Debian's libhdf5_serial is built thread-safe: every thread has its own error stack,
    // and automatic printing (the "HDF5-DIAG: Error detected" lines) is on by default for
    // each. Errors are folded into Framelab's own messages, so it is turned off for every
    // thread that calls into HDF5, not only the first.
    static __thread int thread_done = 0;
    if (!done) {
        if (H5open() < 0) return -1;
        atexit(fl_lock_at_exit);
        on_exit(fl_skip_hdf5_exit_after_detach, NULL);
        done = 1;
    }
    if (!thread_done) {
        H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
        thread_done = 1;
    }
    return 0;
}

typedef struct {
    char text[4096];
    int found;
} fl_error_walk;

static herr_t fl_walk_error(unsigned n, const H5E_error2_t *err, void *data) {
    (void)n;
    fl_error_walk *walk = data;
    // Walking upward starts at the innermost (most specific) entry: keep the first.
    if (!walk->found && err->desc != NULL && err->desc[0] != '\0') {
        snprintf(walk->text, sizeof walk->text, "%s", err->desc);
        walk->found = 1;
    }
    return 0;
}

void fl_h5_error_message(char *buffer, size_t capacity) {
    if (capacity == 0) return;
    fl_error_walk walk = { .text = "", .found = 0 };
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, fl_walk_error, &walk);
    H5Eclear2(H5E_DEFAULT);
    snprintf(buffer, capacity, "%s", walk.text);
}

// MARK: - Constants

hid_t fl_h5p_default(void) { return H5P_DEFAULT; }
hid_t fl_h5s_all(void) { return H5S_ALL; }
hsize_t fl_h5s_unlimited(void) { return H5S_UNLIMITED; }
size_t fl_h5t_variable(void) { return H5T_VARIABLE; }

unsigned fl_h5f_acc_rdonly(void) { return H5F_ACC_RDONLY; }
unsigned fl_h5f_acc_rdwr(void) { return H5F_ACC_RDWR; }
unsigned fl_h5f_acc_trunc(void) { return H5F_ACC_TRUNC; }
unsigned fl_h5f_acc_swmr_write(void) { return H5F_ACC_SWMR_WRITE; }
unsigned fl_h5f_acc_swmr_read(void) { return H5F_ACC_SWMR_READ; }
H5F_libver_t fl_h5f_libver_latest(void) { return H5F_LIBVER_LATEST; }

hid_t fl_h5p_file_access(void) { return H5P_FILE_ACCESS; }
hid_t fl_h5p_group_create(void) { return H5P_GROUP_CREATE; }
hid_t fl_h5p_dataset_create(void) { return H5P_DATASET_CREATE; }

hid_t fl_h5t_native_int64(void) { return H5T_NATIVE_INT64; }
hid_t fl_h5t_native_double(void) { return H5T_NATIVE_DOUBLE; }
hid_t fl_h5t_std_i32le(void) { return H5T_STD_I32LE; }
hid_t fl_h5t_std_i64le(void) { return H5T_STD_I64LE; }
hid_t fl_h5t_std_u8le(void) { return H5T_STD_U8LE; }
hid_t fl_h5t_std_i8le(void) { return H5T_STD_I8LE; }
hid_t fl_h5t_ieee_f64le(void) { return H5T_IEEE_F64LE; }
hid_t fl_h5t_c_s1(void) { return H5T_C_S1; }

unsigned fl_h5p_crt_order_tracked_indexed(void) { return H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED; }

// MARK: - Helpers

int fl_h5_dup_file_descriptor(hid_t file) {
    void *handle = NULL;
    if (H5Fget_vfd_handle(file, H5P_DEFAULT, &handle) < 0 || handle == NULL) return -1;
    return dup(*(int *)handle);
}

int fl_h5_close_detached(hid_t file) {
    int swapped = -1;
    void *handle = NULL;
    if (H5Fget_vfd_handle(file, H5P_DEFAULT, &handle) >= 0 && handle != NULL) {
        int fd = *(int *)handle;
        struct stat info;
        int scratch = memfd_create("framelab-detached-hdf5", MFD_CLOEXEC);
        if (scratch >= 0 && fstat(fd, &info) == 0 && ftruncate(scratch, info.st_size) == 0 &&
            dup2(scratch, fd) >= 0) {
            swapped = 0;
        }
        if (scratch >= 0) close(scratch);
    }
    fl_detached_count++;
    H5Fclose(file);
    H5Eclear2(H5E_DEFAULT);
    return swapped;
}

static uint64_t fl_le64(const unsigned char *b) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | b[i];
    return v;
}

int fl_h5_extend_to_stored_eof(const char *path) {
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) return -1;
    // Superblock version 2 or 3 at offset 0: signature (8), version, size of offsets,
    // size of lengths, flags, base address (8), extension address (8), end-of-file
    // address (8), root object header address (8), checksum (4).
    unsigned char sb[48];
    struct stat info;
    int result = 0;
    if (pread(fd, sb, sizeof sb, 0) == (ssize_t)sizeof sb && memcmp(sb, "\x89HDF\r\n\x1a\n", 8) == 0 &&
        (sb[8] == 2 || sb[8] == 3) && sb[9] == 8 && fstat(fd, &info) == 0) {
        uint64_t base = fl_le64(sb + 12), eof = fl_le64(sb + 28);
        uint64_t end = base + eof;
        // Only a modest shortfall is a failed write; anything else is not ours to "fix".
        if (end > (uint64_t)info.st_size && end - (uint64_t)info.st_size <= ((uint64_t)1 << 32)) {
            result = ftruncate(fd, (off_t)end) == 0 ? 1 : -1;
        }
    }
    int saved = errno;
    close(fd);
    errno = saved;
    return result;
}

int fl_h5_is_hdf5(const char *path) {
    htri_t result = H5Fis_hdf5(path);
    return result < 0 ? -1 : (int)result;
}

herr_t fl_h5_pset_clear_status_flags(hid_t fapl) {
    // A property HDF5 registers in every file access list but does not export a setter
    // for (the h5clear tool sets it the same way).
    hbool_t clear = 1;
    return H5Pset(fapl, "clear_status_flags", &clear);
}

long fl_h5_open_object_count(void) {
    return (long)H5Fget_obj_count((hid_t)H5F_OBJ_ALL, H5F_OBJ_ALL);
}

// MARK: - Process-level file locking

int fl_lock_file_exclusive(int fd) {
#ifdef F_OFD_SETLK
    struct flock lock;
    memset(&lock, 0, sizeof lock);
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;
    lock.l_start = 0;
    lock.l_len = 0;
    return fcntl(fd, F_OFD_SETLK, &lock);
#else
    return flock(fd, LOCK_EX | LOCK_NB);
#endif
}
