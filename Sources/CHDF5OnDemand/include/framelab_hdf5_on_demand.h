// libFramelabHDF5OnDemand.so's one exported function (Sources/CHDF5/include/chdf5_on_demand.h).
#ifndef FRAMELAB_HDF5_ON_DEMAND_H
#define FRAMELAB_HDF5_ON_DEMAND_H

#include "../../CHDF5/include/chdf5_on_demand.h"

const fl_h5_on_demand *fl_h5_on_demand_table(void);

#endif
