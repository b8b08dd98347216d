// The plugin ABI is a header only; SwiftPM needs one source file in a C target.
#include "framelab_plugin.h"
