// Internal to the on-demand library: each file fills its part of the table.
#ifndef FRAMELAB_ON_DEMAND_PARTS_HPP
#define FRAMELAB_ON_DEMAND_PARTS_HPP

#include "../CFramelabCV/on_demand.hpp"

namespace fl_on_demand {
void fill_codecs_video_window(fl_cv_on_demand &table);  // codecs_video_window.cpp
void fill_detectors(fl_cv_on_demand &table);            // framelab_detect.cpp
void fill_dnn(fl_cv_on_demand &table);                  // framelab_dnn.cpp
}  // namespace fl_on_demand

#endif
