// The table between CHDF5 (linked into framelab) and libFramelabHDF5OnDemand.so (target
// CHDF5OnDemand), which is the only code linked against HDF5.
//
// Why a library of its own: libhdf5_serial brings about 30 shared libraries (curl, OpenSSL,
// GnuTLS, Kerberos, LDAP, ...) whose loading and symbol binding took about 20 ms of every
// start, most of a `framelab --version`, while only commands that read or write a recording
// need HDF5. CHDF5 dlopens the library on the first HDF5 call (fl_h5_init, reached through
// every `HDF5.locked` in FramelabRecording) and reaches HDF5 through this table only.
#ifndef FRAMELAB_CHDF5_ON_DEMAND_H
#define FRAMELAB_CHDF5_ON_DEMAND_H

#include "chdf5.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Bumped whenever the table's layout changes: a library from another build is refused.
#define FL_H5_ON_DEMAND_VERSION 1
/// The library's one exported symbol: `const fl_h5_on_demand *fl_h5_on_demand_table(void)`.
#define FL_H5_ON_DEMAND_SYMBOL "fl_h5_on_demand_table"

/// HDF5's own functions that FramelabRecording calls: one field each, named and typed as
/// hdf5.h declares them, so a Swift call reads `h5.H5Fcreate(...)`.
#define FL_H5_FUNCTIONS(X) \
    X(H5Aclose) \
    X(H5Acreate2) \
    X(H5Adelete) \
    X(H5Aexists) \
    X(H5Aget_name) \
    X(H5Aget_space) \
    X(H5Aget_type) \
    X(H5Aopen) \
    X(H5Aopen_by_idx) \
    X(H5Aread) \
    X(H5Awrite) \
    X(H5Dclose) \
    X(H5Dcreate2) \
    X(H5Dget_space) \
    X(H5Dget_type) \
    X(H5Dopen2) \
    X(H5Dread) \
    X(H5Dset_extent) \
    X(H5Dwrite) \
    X(H5Fclose) \
    X(H5Fcreate) \
    X(H5Fflush) \
    X(H5Fget_intent) \
    X(H5Fget_obj_count) \
    X(H5Fincrement_filesize) \
    X(H5Fopen) \
    X(H5Gclose) \
    X(H5Gcreate2) \
    X(H5Gcreate_anon) \
    X(H5Gget_info) \
    X(H5Gopen2) \
    X(H5Lexists) \
    X(H5Lget_name_by_idx) \
    X(H5Oget_info2) \
    X(H5Oget_info_by_name2) \
    X(H5Olink) \
    X(H5Oopen_by_idx) \
    X(H5Pclose) \
    X(H5Pcreate) \
    X(H5Pset_attr_phase_change) \
    X(H5Pset_chunk) \
    X(H5Pset_est_link_info) \
    X(H5Pset_file_locking) \
    X(H5Pset_libver_bounds) \
    X(H5Pset_link_creation_order) \
    X(H5Pset_link_phase_change) \
    X(H5Pset_metadata_read_attempts) \
    X(H5Sclose) \
    X(H5Screate) \
    X(H5Screate_simple) \
    X(H5Sget_simple_extent_dims) \
    X(H5Sget_simple_extent_ndims) \
    X(H5Sget_simple_extent_npoints) \
    X(H5Sselect_hyperslab) \
    X(H5Tclose) \
    X(H5Tcopy) \
    X(H5Tcreate) \
    X(H5Tenum_create) \
    X(H5Tenum_insert) \
    X(H5Tget_class) \
    X(H5Tget_cset) \
    X(H5Tget_member_index) \
    X(H5Tget_member_type) \
    X(H5Tget_size) \
    X(H5Tinsert) \
    X(H5Tis_variable_str) \
    X(H5Tset_cset) \
    X(H5Tset_size) \
    X(H5Tset_strpad) \
    X(H5free_memory)

/// The shim functions of chdf5.h that call into HDF5: CHDF5 forwards each to this field.
#define FL_H5_HELPERS(X) \
    X(fl_h5_init) \
    X(fl_h5_error_message) \
    X(fl_h5f_acc_rdonly) \
    X(fl_h5f_acc_rdwr) \
    X(fl_h5f_acc_trunc) \
    X(fl_h5f_acc_swmr_write) \
    X(fl_h5f_acc_swmr_read) \
    X(fl_h5p_file_access) \
    X(fl_h5p_group_create) \
    X(fl_h5p_dataset_create) \
    X(fl_h5t_native_int64) \
    X(fl_h5t_native_double) \
    X(fl_h5t_std_i32le) \
    X(fl_h5t_std_i64le) \
    X(fl_h5t_std_u8le) \
    X(fl_h5t_std_i8le) \
    X(fl_h5t_ieee_f64le) \
    X(fl_h5t_c_s1) \
    X(fl_h5_dup_file_descriptor) \
    X(fl_h5_close_detached) \
    X(fl_h5_is_hdf5) \
    X(fl_h5_pset_clear_status_flags) \
    X(fl_h5_open_object_count)

#define FL_H5_FIELD(name) __typeof__(name) *_Nonnull name;

typedef struct fl_h5_functions {
    FL_H5_FUNCTIONS(FL_H5_FIELD)
} fl_h5_functions;

typedef struct fl_h5_on_demand {
    unsigned version;  // FL_H5_ON_DEMAND_VERSION
    fl_h5_functions h5;
    FL_H5_HELPERS(FL_H5_FIELD)
} fl_h5_on_demand;

#undef FL_H5_FIELD

typedef const fl_h5_on_demand *_Nullable (*_Nullable fl_h5_on_demand_function)(void);

/// HDF5's functions, loading the library first if need be. When it cannot be loaded this
/// prints one line naming the library and why, and exits with status 1: nothing has been
/// recorded yet at that point, since every recording starts with an HDF5 call.
const fl_h5_functions *_Nonnull fl_h5_functions_loaded(void);

#ifdef __cplusplus
}
#endif

#endif
