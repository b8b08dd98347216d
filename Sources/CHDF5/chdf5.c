#define _GNU_SOURCE 1
#include "chdf5.h"
#include "chdf5_loader.h"

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
    const fl_h5_on_demand *table = fl_h5_on_demand_loaded();
    static int hooked = 0;  // the caller holds the lock
    int status = table->fl_h5_init();
    if (status == 0 && !hooked) {
        // After H5open, so these run before the exit handler HDF5 registered there.
        atexit(fl_lock_at_exit);
        on_exit(fl_skip_hdf5_exit_after_detach, NULL);
        hooked = 1;
    }
    return status;
}

void fl_h5_error_message(char *buffer, size_t capacity) {
    fl_h5_on_demand_loaded()->fl_h5_error_message(buffer, capacity);
}

// MARK: - Constants

hid_t fl_h5p_default(void) { return H5P_DEFAULT; }
hid_t fl_h5s_all(void) { return H5S_ALL; }
hsize_t fl_h5s_unlimited(void) { return H5S_UNLIMITED; }
size_t fl_h5t_variable(void) { return H5T_VARIABLE; }

// hdf5.h wraps these in H5check() and H5open() calls, so they come from the library too.
unsigned fl_h5f_acc_rdonly(void) { return fl_h5_on_demand_loaded()->fl_h5f_acc_rdonly(); }
unsigned fl_h5f_acc_rdwr(void) { return fl_h5_on_demand_loaded()->fl_h5f_acc_rdwr(); }
unsigned fl_h5f_acc_trunc(void) { return fl_h5_on_demand_loaded()->fl_h5f_acc_trunc(); }
unsigned fl_h5f_acc_swmr_write(void) { return fl_h5_on_demand_loaded()->fl_h5f_acc_swmr_write(); }
unsigned fl_h5f_acc_swmr_read(void) { return fl_h5_on_demand_loaded()->fl_h5f_acc_swmr_read(); }
H5F_libver_t fl_h5f_libver_latest(void) { return H5F_LIBVER_LATEST; }

// These name library globals that H5open sets, so they come from the library.
hid_t fl_h5p_file_access(void) { return fl_h5_on_demand_loaded()->fl_h5p_file_access(); }
hid_t fl_h5p_group_create(void) { return fl_h5_on_demand_loaded()->fl_h5p_group_create(); }
hid_t fl_h5p_dataset_create(void) { return fl_h5_on_demand_loaded()->fl_h5p_dataset_create(); }

hid_t fl_h5t_native_int64(void) { return fl_h5_on_demand_loaded()->fl_h5t_native_int64(); }
hid_t fl_h5t_native_double(void) { return fl_h5_on_demand_loaded()->fl_h5t_native_double(); }
hid_t fl_h5t_std_i32le(void) { return fl_h5_on_demand_loaded()->fl_h5t_std_i32le(); }
hid_t fl_h5t_std_i64le(void) { return fl_h5_on_demand_loaded()->fl_h5t_std_i64le(); }
hid_t fl_h5t_std_u8le(void) { return fl_h5_on_demand_loaded()->fl_h5t_std_u8le(); }
hid_t fl_h5t_std_i8le(void) { return fl_h5_on_demand_loaded()->fl_h5t_std_i8le(); }
hid_t fl_h5t_ieee_f64le(void) { return fl_h5_on_demand_loaded()->fl_h5t_ieee_f64le(); }
hid_t fl_h5t_c_s1(void) { return fl_h5_on_demand_loaded()->fl_h5t_c_s1(); }

unsigned fl_h5p_crt_order_tracked_indexed(void) { return H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED; }

// MARK: - Helpers

int fl_h5_dup_file_descriptor(hid_t file) {
    return fl_h5_on_demand_loaded()->fl_h5_dup_file_descriptor(file);
}

int fl_h5_close_detached(hid_t file) {
    fl_detached_count++;
    return fl_h5_on_demand_loaded()->fl_h5_close_detached(file);
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

int fl_h5_is_hdf5(const char *path) { return fl_h5_on_demand_loaded()->fl_h5_is_hdf5(path); }

herr_t fl_h5_pset_clear_status_flags(hid_t fapl) {
    return fl_h5_on_demand_loaded()->fl_h5_pset_clear_status_flags(fapl);
}

long fl_h5_open_object_count(void) { return fl_h5_on_demand_loaded()->fl_h5_open_object_count(); }

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
