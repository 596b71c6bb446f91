#include "aooct-test-util.h"
static Suite *src_suite (void) { return suite_create ("aooctsrc"); }
GST_CHECK_MAIN (src);
