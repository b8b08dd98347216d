// CHDF5's side of chdf5_on_demand.h: the loaded table, for the forwarders in chdf5.c.
#ifndef FRAMELAB_CHDF5_LOADER_H
#define FRAMELAB_CHDF5_LOADER_H

#include "chdf5_on_demand.h"

/// The library's table, loading it first if need be; exits as fl_h5_functions_loaded does.
const fl_h5_on_demand *fl_h5_on_demand_loaded(void);

#endif
