/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: CUDA helpers (device presence, meson's skip code) and the
 * tcase per backend of the test programs. */
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

/* The number of usable CUDA devices (0 without any), probed the same way. */
gint aooct_test_cuda_device_count (void);

/* The test program's usual start: when no CUDA device is usable, says why
 * ("SKIP: ...") and returns TRUE, and main returns AOOCT_TEST_SKIP_CODE. */
gboolean aooct_test_skip_without_cuda (void);

/* The backend the running test is on, "cpu" or "cuda": set before each
 * test by the checked fixture of the tcase aooct_test_backend_tcase()
 * made. */
extern const gchar *aooct_test_backend;

/* Adds to @s a tcase named @backend ("cpu" or "cuda") whose tests run with
 * aooct_test_backend = @backend, and returns it.  meson runs each tcase as
 * its own test (CK_RUN_CASE=cpu, CK_RUN_CASE=cuda: docs/tests.md).  Where
 * no CUDA device is usable, "cuda" is left out (NULL is returned); when it
 * is the tcase CK_RUN_CASE asks for, the program says why ("SKIP: ...")
 * and exits with AOOCT_TEST_SKIP_CODE (meson: skipped).  With
 * AOOCT_TEST_FAKE_GPU=1, "cuda" is kept and its tests run on the CPU (a dry
 * run of the CUDA cases' logic without a GPU). */
TCase *aooct_test_backend_tcase (Suite * s, const gchar * backend);

/* The suite @name of a program that runs the same tests on each backend:
 * a "cpu" and a "cuda" tcase from aooct_test_backend_tcase(), each filled
 * by @add_tests (@cuda says which). */
Suite *aooct_test_suite_per_backend (const gchar * name,
    void (*add_tests) (TCase * tc, gboolean cuda));

/* Defined by each element's test-ELEMENT-cuda.c: adds the element's CUDA
 * tests to the "cuda" tcase of its test program. */
void aooct_test_add_cuda_tests (TCase * tc);

/* For a program whose every test needs a CUDA device: without one, says
 * why ("SKIP: ...") and exits with AOOCT_TEST_SKIP_CODE. */
void aooct_test_require_cuda (void);

G_END_DECLS
#endif /* __AOOCT_CUDA_TEST_UTIL_H__ */
