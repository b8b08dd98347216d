// libFramelabCVOnDemand.so's one exported symbol: the table the bridge reads
// (CFramelabCV/on_demand.hpp).
#include "parts.hpp"

extern "C" __attribute__((visibility("default"))) const fl_cv_on_demand *fl_cv_on_demand_table(void) {
    static const fl_cv_on_demand table = [] {
        fl_cv_on_demand t{};
        t.version = FL_CV_ON_DEMAND_VERSION;
        fl_on_demand::fill_codecs_video_window(t);
        fl_on_demand::fill_detectors(t);
        fl_on_demand::fill_dnn(t);
        return t;
    }();
    return &table;
}
