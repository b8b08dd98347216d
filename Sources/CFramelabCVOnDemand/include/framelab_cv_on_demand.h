// libFramelabCVOnDemand.so has no C interface of its own: the OpenCV bridge (CFramelabCV)
// dlopens it and reads one table through `fl_cv_on_demand_table` (CFramelabCV/on_demand.hpp).
// Nothing includes this header; SwiftPM wants a public include folder for a C target.
