// libFramelabHDF5OnDemand.so: the shim functions that call into HDF5, and the table through
// which CHDF5 reaches them and HDF5's own functions (chdf5_on_demand.h). Everything here is
// static but the table, so nothing in this library can bind to, or be bound by, the
// same-named forwarders in the executable: the shim for chdf5.h's `fl_h5_x` is `od_fl_h5_x`,
// so that FL_H5_HELPERS fills the table and the compiler checks each one's type.
#define _GNU_SOURCE 1
#include "framelab_hdf5_on_demand.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

// Debian's libhdf5_serial is built thread-safe: every thread has its own error stack, and
// automatic printing (the "HDF5-DIAG: Error detected" lines) is on by default for each.
// Errors are folded into Framelab's own messages, so it is turned off for every thread that
// calls into HDF5, not only the first. The exit hooks are CHDF5's (fl_h5_init there).
static int od_fl_h5_init(void) {
    static int opened = 0;
    static __thread int thread_done = 0;
    if (!opened) {
        if (H5open() < 0) return -1;
        opened = 1;
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
} od_error_walk;

static herr_t od_walk_error(unsigned n, const H5E_error2_t *err, void *data) {
    (void)n;
    od_error_walk *walk = data;
    // Walking upward starts at the innermost (most specific) entry: keep the first.
    if (!walk->found && err->desc != NULL && err->desc[0] != '\0') {
        snprintf(walk->text, sizeof walk->text, "%s", err->desc);
        walk->found = 1;
    }
    return 0;
}

static void od_fl_h5_error_message(char *buffer, size_t capacity) {
    if (capacity == 0) return;
    od_error_walk walk = { .text = "", .found = 0 };
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, od_walk_error, &walk);
    H5Eclear2(H5E_DEFAULT);
    snprintf(buffer, capacity, "%s", walk.text);
}

// Constants that name library globals (set by H5open) or that hdf5.h wraps in H5check()
// and H5open() calls.
static unsigned od_fl_h5f_acc_rdonly(void) { return H5F_ACC_RDONLY; }
static unsigned od_fl_h5f_acc_rdwr(void) { return H5F_ACC_RDWR; }
static unsigned od_fl_h5f_acc_trunc(void) { return H5F_ACC_TRUNC; }
static unsigned od_fl_h5f_acc_swmr_write(void) { return H5F_ACC_SWMR_WRITE; }
static unsigned od_fl_h5f_acc_swmr_read(void) { return H5F_ACC_SWMR_READ; }
static hid_t od_fl_h5p_file_access(void) { return H5P_FILE_ACCESS; }
static hid_t od_fl_h5p_group_create(void) { return H5P_GROUP_CREATE; }
static hid_t od_fl_h5p_dataset_create(void) { return H5P_DATASET_CREATE; }
static hid_t od_fl_h5t_native_int64(void) { return H5T_NATIVE_INT64; }
static hid_t od_fl_h5t_native_double(void) { return H5T_NATIVE_DOUBLE; }
static hid_t od_fl_h5t_std_i32le(void) { return H5T_STD_I32LE; }
static hid_t od_fl_h5t_std_i64le(void) { return H5T_STD_I64LE; }
static hid_t od_fl_h5t_std_u8le(void) { return H5T_STD_U8LE; }
static hid_t od_fl_h5t_std_i8le(void) { return H5T_STD_I8LE; }
static hid_t od_fl_h5t_ieee_f64le(void) { return H5T_IEEE_F64LE; }
static hid_t od_fl_h5t_c_s1(void) { return H5T_C_S1; }

static int od_fl_h5_dup_file_descriptor(hid_t file) {
    void *handle = NULL;
    if (H5Fget_vfd_handle(file, H5P_DEFAULT, &handle) < 0 || handle == NULL) return -1;
    return dup(*(int *)handle);
}

static int od_fl_h5_close_detached(hid_t file) {
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
    H5Fclose(file);
    H5Eclear2(H5E_DEFAULT);
    return swapped;
}

static int od_fl_h5_is_hdf5(const char *path) {
    htri_t result = H5Fis_hdf5(path);
    return result < 0 ? -1 : (int)result;
}

static herr_t od_fl_h5_pset_clear_status_flags(hid_t fapl) {
    // A property HDF5 registers in every file access list but does not export a setter
    // for (the h5clear tool sets it the same way).
    hbool_t clear = 1;
    return H5Pset(fapl, "clear_status_flags", &clear);
}

static long od_fl_h5_open_object_count(void) {
    return (long)H5Fget_obj_count((hid_t)H5F_OBJ_ALL, H5F_OBJ_ALL);
}

__attribute__((visibility("default"))) const fl_h5_on_demand *fl_h5_on_demand_table(void) {
    static fl_h5_on_demand table;
    static int filled = 0;  // CHDF5 calls this once, under its HDF5 lock
    if (!filled) {
        table.version = FL_H5_ON_DEMAND_VERSION;
#define FL_H5_FILL(name) table.h5.name = name;
        FL_H5_FUNCTIONS(FL_H5_FILL)
#undef FL_H5_FILL
#define FL_H5_FILL_HELPER(name) table.name = od_##name;
        FL_H5_HELPERS(FL_H5_FILL_HELPER)
#undef FL_H5_FILL_HELPER
        filled = 1;
    }
    return &table;
}
