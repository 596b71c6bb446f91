/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: a warning for a start-time property changed while running (see
 * aooct-late-property.h). */
#include "aooct-late-property.h"

/* GStreamer does not refuse such a change (GST_PARAM_MUTABLE_READY is
 * advice), and the element reads the value only when it starts or
 * negotiates: without a word, the user believes it applied. */
void
aooct_warn_late_properties (GstElement * element, guint n_pspecs,
    GParamSpec ** pspecs)
{
  GstState state, pending;
  guint i;

  GST_OBJECT_LOCK (element);
  state = GST_STATE (element);
  pending = GST_STATE_PENDING (element);
  GST_OBJECT_UNLOCK (element);
  if (state <= GST_STATE_READY && pending <= GST_STATE_READY)
    return;
  for (i = 0; i < n_pspecs; i++) {
    if (!(pspecs[i]->flags & GST_PARAM_MUTABLE_READY)
        || !(pspecs[i]->flags & G_PARAM_WRITABLE))
      continue;
    GST_ELEMENT_WARNING (element, RESOURCE, SETTINGS, ("%s was changed in "
            "state %s, but it is read only when the element starts or "
            "negotiates its caps: it takes effect at the next negotiation "
            "or restart, not now (set it in READY or NULL)",
            g_param_spec_get_name (pspecs[i]),
            gst_element_state_get_name (state)), (NULL));
  }
}
