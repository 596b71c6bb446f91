#include <gst/check/gstcheck.h>
GST_START_TEST (test_dummy)
{
}
GST_END_TEST;
static Suite *
norm_suite (void)
{
  Suite *s = suite_create ("aooctnorm");
  TCase *tc = tcase_create ("general");
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_dummy);
  return s;
}
GST_CHECK_MAIN (norm);
