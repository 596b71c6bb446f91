/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the query of aooctsplit's automatic runs (see the header). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "aooct-group-query.h"

#define FIELD "buffers"

GstQuery *
aooct_group_query_new (void)
{
  return gst_query_new_custom (AOOCT_GROUP_QUERY,
      gst_structure_new ("aooct-group", FIELD, G_TYPE_UINT, 1, NULL));
}

guint
aooct_group_query_buffers (GstQuery * query)
{
  const GstStructure *s = gst_query_get_structure (query);
  guint n = 1;

  if (s == NULL || !gst_structure_get_uint (s, FIELD, &n) || n == 0)
    return 1;
  return n;
}

static guint64
gcd (guint64 a, guint64 b)
{
  while (b) {
    guint64 t = a % b;

    a = b;
    b = t;
  }
  return a;
}

void
aooct_group_query_answer (GstQuery * query, gint n, gint bscans)
{
  /* downstream's run, in our outputs (groups), as B-scans of our input */
  guint64 need = (guint64) aooct_group_query_buffers (query) * MAX (n, 1);
  guint64 b = MAX (bscans, 1);
  guint64 run = need / gcd (need, b);

  gst_structure_set (gst_query_writable_structure (query), FIELD, G_TYPE_UINT,
      (guint) MIN (run, G_MAXUINT), NULL);
}
