// libv4l2 and libv4lconvert (pkg-config libv4l2, libv4lconvert; Debian libv4l-dev).
#include <libv4l2.h>
#include <libv4lconvert.h>
