/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct fuzz target: the text calibration file parser (aooct_text_parse).
 *
 * Input: byte 0 picks the record shape (1, 1..2 or 2 values per record),
 * byte 1 the expected record count (0 = any, else 1..255); the rest is the
 * file.  Besides the sanitizers, checks what a caller relies on: on success
 * the count is right, every value is finite, every record has an allowed
 * number of values and line numbers increase, every value is within the
 * float32 range; on failure an AOOCT_ERROR_FILE message that names the file
 * and carries no control byte (they are quoted as \xNN). */
#include <float.h>
#include <math.h>
#include <string.h>

#include "aooct-textfile.h"
#include "aooct-error.h"

int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  static const gint shapes[3][2] = { {1, 1}, {1, 2}, {2, 2} };
  GError *error = NULL;
  AooctRecord *recs;
  gsize n = 0, expected, i;
  gint min_v, max_v;

  if (size < 2)
    return 0;
  min_v = shapes[data[0] % 3][0];
  max_v = shapes[data[0] % 3][1];
  expected = data[1];
  recs = aooct_text_parse ("fuzz.txt", (const gchar *) data + 2, size - 2,
      min_v, max_v, expected, &n, &error);
  if (recs == NULL) {
    if (error == NULL || error->domain != AOOCT_ERROR
        || error->code != AOOCT_ERROR_FILE
        || strstr (error->message, "fuzz.txt") == NULL)
      __builtin_trap ();
    for (i = 0; error->message[i]; i++)
      if ((guchar) error->message[i] < 0x20 || error->message[i] == 0x7f)
        __builtin_trap ();
    g_error_free (error);
    return 0;
  }
  if (error != NULL || n == 0 || (expected > 0 && n != expected))
    __builtin_trap ();
  for (i = 0; i < n; i++) {
    if (recs[i].n_values < min_v || recs[i].n_values > max_v)
      __builtin_trap ();
    if (!isfinite (recs[i].v[0]) || fabs (recs[i].v[0]) > FLT_MAX
        || (recs[i].n_values == 2 && (!isfinite (recs[i].v[1])
                || fabs (recs[i].v[1]) > FLT_MAX)))
      __builtin_trap ();
    if (recs[i].line < 1 || (i > 0 && recs[i].line <= recs[i - 1].line))
      __builtin_trap ();
  }
  g_free (recs);
  return 0;
}
