/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: CUDA helpers (see aooct-cuda-test-util.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "aooct-cuda-test-util.h"

#ifdef HAVE_CUDA
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/cuda-gst.h>
#endif

#ifdef HAVE_CUDA
static gboolean
probe (gchar ** why, int *devices)
{
  CUresult res;
  int count = 0;

  /* the same probe as the elements', done independently so that a wrong
   * answer there cannot hide a GPU test here */
  if (!gst_cuda_load_library ()) {
    *why = g_strdup ("libcuda cannot be loaded (no NVIDIA driver)");
    return FALSE;
  }
  res = CuInit (0);
  if (res == CUDA_SUCCESS)
    res = CuDeviceGetCount (&count);
  if (res != CUDA_SUCCESS) {
    const gchar *name = NULL;
    CuGetErrorName (res, &name);
    *why = g_strdup_printf ("CUDA driver initialisation failed: %s",
        name ? name : "?");
    return FALSE;
  }
  *devices = count;
  if (count == 0) {
    *why = g_strdup ("no CUDA device");
    return FALSE;
  }
  return TRUE;
}
#endif

/* The probe in a child process: TRUE with the number of devices in
 * @devices, or FALSE with the reason in @why. */
static gboolean
probe_in_child (gchar ** why, gint * devices)
{
#ifdef HAVE_CUDA
  /* gst-check forks a child per test, and CUDA initialised before a fork
   * is unusable in the child (CUDA_ERROR_NOT_INITIALIZED): probe in a
   * child of our own so that this process never initialises CUDA. */
  int fds[2];
  pid_t pid;
  gchar buf[512];
  gssize len = 0, n;
  int status = 0;

  if (pipe (fds) != 0) {
    *why = g_strdup ("pipe() failed");
    return FALSE;
  }
  pid = fork ();
  if (pid == 0) {
    gchar *reason = NULL;
    int count = 0;
    gboolean ok = probe (&reason, &count);
    gchar *msg = ok ? g_strdup_printf ("1%d", count) :
        g_strdup_printf ("0%s", reason ? reason : "");

    close (fds[0]);
    if (write (fds[1], msg, strlen (msg)) < 0)
      _exit (2);
    _exit (0);
  }
  close (fds[1]);
  if (pid < 0) {
    close (fds[0]);
    *why = g_strdup ("fork() failed");
    return FALSE;
  }
  while ((n = read (fds[0], buf + len, sizeof (buf) - 1 - len)) > 0)
    len += n;
  close (fds[0]);
  waitpid (pid, &status, 0);
  buf[MAX (len, 0)] = '\0';
  if (len >= 1 && buf[0] == '1') {
    *devices = atoi (buf + 1);
    return TRUE;
  }
  *why = g_strdup (len > 1 ? buf + 1 : "the CUDA probe process failed");
  return FALSE;
#else
  *why = g_strdup ("this build has no CUDA backend");
  return FALSE;
#endif
}

gboolean
aooct_test_cuda_available (gchar ** why)
{
  gint devices = 0;

  return probe_in_child (why, &devices);
}

gint
aooct_test_cuda_device_count (void)
{
  gchar *why = NULL;
  gint devices = 0;

  if (!probe_in_child (&why, &devices))
    devices = 0;
  g_free (why);
  return devices;
}

gboolean
aooct_test_skip_without_cuda (void)
{
  gchar *why = NULL;

  if (aooct_test_cuda_available (&why))
    return FALSE;
  g_print ("SKIP: %s\n", why);
  g_free (why);
  return TRUE;
}

const gchar *aooct_test_backend = "cpu";

static void
on_cpu (void)
{
  aooct_test_backend = "cpu";
}

static void
on_cuda (void)
{
  aooct_test_backend = g_getenv ("AOOCT_TEST_FAKE_GPU") ? "cpu" : "cuda";
}

TCase *
aooct_test_backend_tcase (Suite * s, const gchar * backend)
{
  const gchar *only = g_getenv ("CK_RUN_CASE");
  gboolean cuda = g_str_equal (backend, "cuda");
  TCase *tc;

  g_return_val_if_fail (cuda || g_str_equal (backend, "cpu"), NULL);
  if (cuda && !g_getenv ("AOOCT_TEST_FAKE_GPU")) {
    gchar *why = NULL;

    /* another tcase asked for: no device probe (a fork) needed */
    if (only && !g_str_equal (only, "cuda"))
      return NULL;
    if (!aooct_test_cuda_available (&why)) {
      g_print ("%s: %s\n", only ? "SKIP" : "cuda tcase left out", why);
      g_free (why);
      if (only)
        exit (AOOCT_TEST_SKIP_CODE);
      return NULL;
    }
  }
  tc = tcase_create (backend);
  /* in each test's child (check forks one per test): the parent never
   * needs to know */
  tcase_add_checked_fixture (tc, cuda ? on_cuda : on_cpu, NULL);
  suite_add_tcase (s, tc);
  return tc;
}

Suite *
aooct_test_suite_per_backend (const gchar * name,
    void (*add_tests) (TCase * tc, gboolean cuda))
{
  Suite *s = suite_create (name);
  TCase *cpu = aooct_test_backend_tcase (s, "cpu");
  TCase *cuda = aooct_test_backend_tcase (s, "cuda");

  add_tests (cpu, FALSE);
  if (cuda)
    add_tests (cuda, TRUE);
  return s;
}

void
aooct_test_require_cuda (void)
{
  if (aooct_test_skip_without_cuda ())
    exit (AOOCT_TEST_SKIP_CODE);
}
