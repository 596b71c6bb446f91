/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: helpers for programs that build aooct pipelines (see
 * aooct-app-util.h). */
#include "aooct-app-util.h"

void
aooct_app_set_everywhere (GstElement * bin, const gchar * name, gboolean value)
{
  GstIterator *it = gst_bin_iterate_recurse (GST_BIN (bin));
  GValue item = G_VALUE_INIT;

  while (gst_iterator_next (it, &item) == GST_ITERATOR_OK) {
    GObject *obj = g_value_get_object (&item);

    if (g_object_class_find_property (G_OBJECT_GET_CLASS (obj), name))
      g_object_set (obj, name, value, NULL);
    g_value_reset (&item);
  }
  g_value_unset (&item);
  gst_iterator_free (it);
}
