// CHDF5: the small C surface Framelab's recording layer needs on top of HDF5.
//
// HDF5 exposes many of its constants as macros that call into the library
// (H5P_DEFAULT, H5F_ACC_TRUNC, H5T_NATIVE_INT64, ...). Swift cannot import those,
// so this shim returns them from functions. It also owns the process-wide lock that
// serializes every HDF5 call (the serial HDF5 build is not thread-safe), and a few
// helpers Swift cannot write itself (fcntl locks, HDF5's private properties).
//
// HDF5 itself is not linked into framelab: the functions here that call into it forward to
// libFramelabHDF5OnDemand.so, loaded by the first fl_h5_init (chdf5_on_demand.h says why).
// hdf5.h is still included, for its types and compile-time constants.
#ifndef FRAMELAB_CHDF5_H
#define FRAMELAB_CHDF5_H

// Debian's serial HDF5 keeps its headers in hdf5/serial/, which pkg-config adds to the
// include path; CHDF5 does not use pkg-config, since that would also link HDF5.
#if __has_include(<hdf5/serial/hdf5.h>)
#include <hdf5/serial/hdf5.h>
#else
#include <hdf5.h>
#endif
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// MARK: - The global HDF5 lock

/// Takes the process-wide HDF5 lock (recursive). Every HDF5 call must be made while it
/// is held. The lock is held across fork() (pthread_atfork) so a forked child never
/// inherits it mid-call; the child gets a fresh, unlocked lock.
void fl_h5_lock(void);
void fl_h5_unlock(void);

/// Initializes the library once: loads libFramelabHDF5OnDemand.so (or exits with a
/// one-line error: fl_h5_functions_loaded), opens HDF5, turns off HDF5's automatic
/// printing of error stacks (errors are reported through fl_h5_error_message instead),
/// and arranges for process exit to take the lock before HDF5's own exit handler closes
/// the open files. Returns a negative value on failure. Call with the lock held.
int fl_h5_init(void);

/// Writes a one-line description of the current HDF5 error stack (its innermost,
/// most specific entry) into `buffer` and clears the stack. Writes "" when the stack
/// is empty. Call with the lock held, right after the failing call.
void fl_h5_error_message(char *buffer, size_t capacity);

// MARK: - Constants that are macros in hdf5.h

hid_t fl_h5p_default(void);
hid_t fl_h5s_all(void);
hsize_t fl_h5s_unlimited(void);
size_t fl_h5t_variable(void);

unsigned fl_h5f_acc_rdonly(void);
unsigned fl_h5f_acc_rdwr(void);
unsigned fl_h5f_acc_trunc(void);
unsigned fl_h5f_acc_swmr_write(void);
unsigned fl_h5f_acc_swmr_read(void);

/// The newest file format this library writes (needed for SWMR).
H5F_libver_t fl_h5f_libver_latest(void);

hid_t fl_h5p_file_access(void);
hid_t fl_h5p_group_create(void);
hid_t fl_h5p_dataset_create(void);

hid_t fl_h5t_native_int64(void);
hid_t fl_h5t_native_double(void);
hid_t fl_h5t_std_i32le(void);
hid_t fl_h5t_std_i64le(void);
hid_t fl_h5t_std_u8le(void);
hid_t fl_h5t_std_i8le(void);
hid_t fl_h5t_ieee_f64le(void);
hid_t fl_h5t_c_s1(void);

/// Link and attribute creation-order flags (H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED).
unsigned fl_h5p_crt_order_tracked_indexed(void);

// MARK: - Small helpers

/// A copy of the file's low-level descriptor (sec2 driver), for fsync outside the
/// HDF5 lock; the caller closes it. Returns -1 when it is not available.
int fl_h5_dup_file_descriptor(hid_t file);

/// Closes an HDF5 file whose writes are failing (a full disk) without touching it any
/// more and without leaving HDF5 in a state that crashes at exit. HDF5 1.10 cannot close
/// a file whose last flush fails: H5Fclose fails, yet frees part of the file, and the
/// library's exit handler then dereferences it (SIGSEGV). So the file's descriptor is
/// swapped for an anonymous in-memory file of the same size first: the close then
/// "succeeds" there, and the real file stays as its last successful write left it (the
/// "open for writing" mark included, which `framelab recover` clears). Returns 0, or -1
/// when the descriptor could not be swapped (the file is closed anyway).
int fl_h5_close_detached(hid_t file);

/// A file a failed writer left shorter than its superblock's end-of-file address (space
/// for it had been allocated, its bytes never written) is refused by every HDF5 reader
/// ("truncated file"). Extends it with zeros to that address, as the missing writes
/// would have. Returns 1 if it was extended, 0 if nothing was needed (or the file is not
/// a version 2/3 superblock HDF5 file), -1 with errno on error.
int fl_h5_extend_to_stored_eof(const char *path);

/// 1 if the file at `path` is an HDF5 file, 0 if it is not, negative on error. Call
/// with the lock held.
int fl_h5_is_hdf5(const char *path);

/// Asks a file access property list to clear the superblock's "open for writing"
/// flags when the file is opened read-write, as the h5clear tool does. A writer that
/// was killed leaves them set, and HDF5 then refuses every non-SWMR open.
herr_t fl_h5_pset_clear_status_flags(hid_t fapl);

/// How many identifiers (files, groups, datasets, types, attributes) are open across
/// every file in the process. Call with the lock held.
long fl_h5_open_object_count(void);

// MARK: - Process-level file locking

/// Takes an exclusive open-file-description lock (fcntl F_OFD_SETLK) on the whole of
/// `fd`, without waiting. Such locks conflict between processes and between separate
/// open() calls in one process, and are independent of the flock() locks HDF5 uses.
/// Returns 0, or -1 with errno set (EAGAIN/EACCES when someone else holds it).
int fl_lock_file_exclusive(int fd);

#ifdef __cplusplus
}
#endif

#endif
