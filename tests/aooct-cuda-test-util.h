/* aooct tests: CUDA helpers (device presence, meson's skip code). */
#ifndef __AOOCT_CUDA_TEST_UTIL_H__
#define __AOOCT_CUDA_TEST_UTIL_H__

#include <glib.h>
#include <gst/check/gstcheck.h>

G_BEGIN_DECLS
/* meson counts a test that exits with this code as skipped */
#define AOOCT_TEST_SKIP_CODE 77
/* TRUE when this build has the CUDA backend and a CUDA device is usable;
 * otherwise FALSE with the reason in @why (g_free).  Never aborts (CI has
 * no driver). */
    gboolean aooct_test_cuda_available (gchar ** why);

/* The test program's usual start: when no CUDA device is usable, says why
 * ("SKIP: ...") and returns TRUE, and main returns AOOCT_TEST_SKIP_CODE. */
gboolean aooct_test_skip_without_cuda (void);

/* The whole main() of a test program that runs once per backend (meson
 * passes "cpu" or "cuda" as its argument): stores the backend in
 * *@backend (default "cpu"; anything else is a usage error), skips "cuda"
 * without a usable device, runs the suite @make_suite returns and gives
 * main's exit status. */
int aooct_test_main_per_backend (int argc, char **argv, const gchar ** backend,
    Suite * (*make_suite) (void));

G_END_DECLS
#endif /* __AOOCT_CUDA_TEST_UTIL_H__ */
