/* The stamp plugin with fl_plugin.struct_size at the end of its last 2.0 field
 * (element_count), short of sizeof's tail padding: the least a 2.0 plugin may declare.
 * The host must take it however large its own, later, fl_plugin has grown. */
#include <stddef.h>
#include <framelab_plugin.h>
#define STAMP_PLUGIN_SIZE (offsetof(fl_plugin, element_count) + sizeof(int32_t))
#include "stamp_plugin.c"
